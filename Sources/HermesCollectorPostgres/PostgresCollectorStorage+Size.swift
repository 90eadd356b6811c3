import HermesCollector
import PostgresNIO

extension PostgresCollectorStorage {
    /// `pg_database_size` of the database the store uses.
    public func storageBytes() async throws -> Int? {
        try await PostgresErrors.run("read the database size") {
            let rows = try await client.query("SELECT pg_database_size(current_database())", logger: logger)
            for try await bytes in rows.decode(Int64.self) { return Int(bytes) }
            return nil
        }
    }
}
