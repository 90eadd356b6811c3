package import Foundation
package import GRDB
package import Hermes
package import HermesCollector
package import HermesWire
package import Logging

/// The collector of a torture run: embedded, on an ephemeral loopback port, with a SQLite file
/// that is read back at the end to count each numbered record. Its record rule refuses the
/// records the torture poisoned (a valid record a deployment's own rule does not accept).
package struct TortureCollector {
    package static let appKey = "torture"
    package static let keyID: UInt32 = 1

    package let server: CollectorServer
    package let databasePath: String
    /// The AES-GCM key the clients seal their packets with.
    package let key: [UInt8]

    /// Starts a collector whose database lives in `directory`.
    package static func start(in directory: URL, document: ConfigurationDocument, logger: Logger) async throws -> TortureCollector {
        let key = Hex.randomBytes(16)
        let path = directory.appendingPathComponent("collector.sqlite").path
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(
                port: 0, appKeys: [appKey], adminToken: Hex.string(Hex.randomBytes(16)),
                keyring: Keyring([try AESGCMCipher(key: key, keyID: keyID)]), initialConfiguration: document,
                recordRule: { _, meta in meta[TortureScenario.poisonField] == true ? "the torture poisoned this record" : nil }
            ),
            storage: try SQLiteCollectorStorage(path: path), logger: logger
        )
        return TortureCollector(server: server, databasePath: path, key: key)
    }

    /// Runs `body` with a collector started in a new temporary directory, which `body` may use
    /// too; stops the collector whatever happens, reads what it stored, and deletes the directory.
    /// - Parameter name: the directory's prefix, after `hermes-`.
    /// - Returns: what `body` returned, and ``storedCounts()``.
    package static func session<T>(
        _ name: String, document: ConfigurationDocument, _ body: (TortureCollector, URL) async throws -> T
    ) async throws -> (result: T, stored: [Int64: Int]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let collector = try await start(in: directory, document: document, logger: TortureLog.quiet)
        let result: T
        do {
            result = try await body(collector, directory)
        } catch {
            try? await collector.stop()
            throw error
        }
        try await collector.stop()
        return (result, try collector.storedCounts())
    }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// Stops the server; the database stays for ``storedCounts()``.
    package func stop() async throws {
        try await server.shutdown()
    }

    /// How many stored records carry each sequence number (the meta field `n`), over every
    /// namespace. Read after the server has stopped.
    package func storedCounts() throws -> [Int64: Int] {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        // The stopped server's pool closes when its last reference goes, checkpointing the WAL
        // under an exclusive lock: wait for that rather than fail with "database is locked".
        configuration.busyMode = .timeout(10)
        let database = try DatabaseQueue(path: databasePath, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT json_extract(meta, '$.n') AS n, COUNT(*) AS copies FROM events
                    WHERE json_extract(meta, '$.n') IS NOT NULL GROUP BY n
                    """)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["n"] as Int64, $0["copies"] as Int) })
        }
    }
}
