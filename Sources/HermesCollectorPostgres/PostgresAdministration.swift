import Foundation
import HermesCollector
package import Logging
import PostgresNIO

/// Databases made and dropped on a server, for tests and benchmarks that want an empty one each.
package enum PostgresAdministration {
    /// Makes a new empty database on the server `serverURL` names (connecting to that URL's
    /// database to do it).
    /// - Returns: `serverURL` naming the new database instead.
    package static func createDatabase(_ name: String, serverURL: String, logger: Logger) async throws -> String {
        try await run("CREATE DATABASE \(try identifier(name))", serverURL: serverURL, logger: logger)
        guard var components = URLComponents(string: serverURL) else { throw CollectorError(.storageFailed, "unreadable URL") }
        components.path = "/\(name)"
        guard let url = components.string else { throw CollectorError(.storageFailed, "unreadable URL") }
        return url
    }

    /// Drops a database, closing its connections first.
    package static func dropDatabase(_ name: String, serverURL: String, logger: Logger) async throws {
        try await run("DROP DATABASE IF EXISTS \(try identifier(name)) WITH (FORCE)", serverURL: serverURL, logger: logger)
    }

    /// Runs one statement through a short-lived client.
    private static func run(_ statement: String, serverURL: String, logger: Logger) async throws {
        let client = PostgresClient(configuration: try PostgresURL(serverURL).configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    /// `name` if it is a plain lowercase identifier (it is spliced into SQL).
    private static func identifier(_ name: String) throws(CollectorError) -> String {
        guard !name.isEmpty,
            name.utf8.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            })
        else {
            throw CollectorError(.storageFailed, "a database name must be lowercase letters, digits and underscores")
        }
        return name
    }
}
