public import HermesCollector
public import HermesWire
import Logging
import PostgresNIO

extension PostgresCollectorStorage {
    public func loadConfiguration() async throws -> ConfigurationDocument? {
        try await PostgresErrors.run("read the configuration") {
            try await client.withConnection { connection in try await Self.savedConfiguration(on: connection, logger: logger) }
        }
    }

    public func saveConfiguration(_ document: ConfigurationDocument) async throws {
        try await PostgresErrors.run("save the configuration") {
            try await client.withTransaction(logger: logger) { connection in
                try await Self.save(document, on: connection, logger: logger)
            }
        }
    }

    /// Loads, edits and saves the document in one transaction holding an advisory lock, so that
    /// two instances changing it at once make two revisions, one after the other.
    public func updateConfiguration(
        from current: ConfigurationDocument,
        _ edit: @Sendable (ConfigurationDocument) throws(CollectorError) -> ConfigurationDocument
    ) async throws -> ConfigurationDocument {
        try await PostgresErrors.run("save the configuration") {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.Lock.configuration.rawValue))", logger: logger)
                let next = try edit(try await Self.savedConfiguration(on: connection, logger: logger) ?? current)
                try await Self.save(next, on: connection, logger: logger)
                return next
            }
        }
    }

    /// Calls `changed` when another instance saves a configuration: on each notification of a
    /// dedicated listening connection, after every (re)connection, and every
    /// ``Options/configurationPollInterval`` in case a notification was lost. Reconnects after
    /// a second when the connection fails; returns when the task is cancelled.
    public func watchConfiguration(_ changed: @escaping @Sendable () async -> Void) async throws {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresSchema.configurationChannel) { notifications in
                        await changed()
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for try await _ in notifications { await changed() }
                            }
                            group.addTask { [options] in
                                while true {
                                    try await Task.sleep(for: options.configurationPollInterval)
                                    await changed()
                                }
                            }
                            try await group.next()
                            group.cancelAll()
                        }
                    }
                }
            } catch  where Task.isCancelled {
                return
            } catch {
                logger.warning(
                    "configuration listener lost; reconnecting", metadata: ["error": "\(PostgresErrors.describe(PostgresErrors.unwrap(error)))"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private static func savedConfiguration(on connection: PostgresConnection, logger: Logger) async throws -> ConfigurationDocument? {
        let rows = try await connection.query("SELECT document FROM config WHERE id = 1", logger: logger)
        for try await text in rows.decode(String.self) {
            do {
                return try ConfigurationDocument(jsonBytes: Array(text.utf8))
            } catch {
                throw CollectorError(.storageFailed, "the stored configuration is unreadable: \(error.message)", underlying: error)
            }
        }
        return nil
    }

    /// Replaces the saved document and notifies the other instances (on commit).
    private static func save(_ document: ConfigurationDocument, on connection: PostgresConnection, logger: Logger) async throws {
        let text = String(decoding: document.jsonBytes(), as: UTF8.self)
        let revision = Int64(document.revision)
        try await connection.query(
            """
            INSERT INTO config (id, revision, document) VALUES (1, \(revision), \(text))
            ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, document = excluded.document, saved_at = now()
            """, logger: logger)
        try await connection.query("SELECT pg_notify(\(PostgresSchema.configurationChannel), \(String(revision)))", logger: logger)
    }
}
