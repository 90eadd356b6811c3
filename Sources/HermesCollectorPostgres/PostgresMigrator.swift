import HermesCollector
import Logging
import PostgresNIO

/// Applies numbered migrations once each, recording them in a ledger table, each in its own
/// transaction under an advisory lock so that instances starting together apply each once. The
/// collector's tables, its crash groups' and record sync's keep separate ledgers
/// (`hermes_migrations`, `crash_migrations`, `sync_migrations`): sync's tables exist only where
/// sync is served.
struct PostgresMigrator {
    /// A migration: its version in its ledger, a name, and its statements (one per string).
    typealias Migration = (version: Int32, name: String, statements: [String])

    let client: PostgresClient
    let logger: Logger

    /// Applies those of `migrations` that `ledger` does not list yet.
    /// - Parameter ledger: the table listing applied versions (a fixed name: it is spliced into SQL).
    func apply(_ migrations: [Migration], ledger: String) async throws(CollectorError) {
        for migration in migrations {
            try await PostgresErrors.run("migrate \(ledger) to version \(migration.version)") {
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.Lock.migrations.rawValue))", logger: logger)
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                CREATE TABLE IF NOT EXISTS \(ledger) (
                                    version integer PRIMARY KEY,
                                    name text NOT NULL,
                                    applied_at timestamptz NOT NULL DEFAULT now()
                                )
                                """), logger: logger)
                    var binds = PostgresBindings(capacity: 2)
                    binds.append(migration.version)
                    let applied = try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT 1 FROM \(ledger) WHERE version = $1", binds: binds), logger: logger
                    )
                    for try await _ in applied { return }
                    try await connection.run(migration.statements, logger: logger)
                    binds.append(migration.name)
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "INSERT INTO \(ledger) (version, name) VALUES ($1, $2)", binds: binds), logger: logger
                    )
                    logger.notice(
                        "schema migrated", metadata: ["ledger": "\(ledger)", "version": "\(migration.version)", "name": "\(migration.name)"])
                }
            }
        }
    }
}
