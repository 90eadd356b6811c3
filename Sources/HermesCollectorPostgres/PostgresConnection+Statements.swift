import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `statements` one after another, each answering no rows the caller needs (schema
    /// changes, locks, settings), stopping at the first that fails.
    func run(_ statements: [String], logger: Logger) async throws {
        for statement in statements {
            try await query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }
}
