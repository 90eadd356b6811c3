public import HermesCollector
import PostgresNIO

extension PostgresCollectorStorage {
    /// One statement over every partition (a user's through their index), in one transaction
    /// with the memberships and the device's queue; uploads go on meanwhile.
    public func erase(_ subject: ErasureSubject) async throws -> Int {
        try await PostgresErrors.run("erase the records of a \(subject.kind)") {
            try await client.withTransaction(logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(subject.id)
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "WITH gone AS (DELETE FROM events WHERE \(subject.column) = $1 RETURNING 1) SELECT count(*) FROM gone",
                        binds: binds), logger: logger)
                var removed = 0
                for try await count in rows.decode(Int64.self) { removed = Int(count) }
                for (sql, id) in ErasureQueries.related(subject) {
                    var binds = PostgresBindings()
                    binds.append(id)
                    try await connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql), binds: binds), logger: logger)
                }
                return removed
            }
        }
    }
}
