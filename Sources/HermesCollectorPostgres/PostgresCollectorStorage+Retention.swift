public import HermesCollector
import Logging
import PostgresNIO

extension PostgresCollectorStorage {
    /// Drops the day partitions that end at or before the cutoff's day, oldest first, and deletes
    /// the default partition's rows older than that day.
    ///
    /// Each partition is detached in a transaction of its own with `lock_timeout` 500 ms (the
    /// detach needs a moment's exclusive lock on `events`, so inserts wait at most that long; a
    /// partition that cannot get it is left for the next pass), then dropped outside it, where
    /// only the detached table is locked. Its rows are counted just before.
    public func removeDays(before cutoff: Int64) async throws -> RetentionOutcome {
        let end = UTCDay.start(of: cutoff)
        var outcome = RetentionOutcome(daysDropped: 0, recordsRemoved: 0)
        for partition in try await partitions().sorted() where partition.upperBound <= end {
            let table = partition.tableName
            outcome.recordsRemoved += try await PostgresErrors.run("remove the partition \(table)") {
                let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger)
                var count: Int64 = 0
                for try await value in rows.decode(Int64.self) { count = value }
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.query("SET LOCAL lock_timeout = '500ms'", logger: logger)
                    try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE events DETACH PARTITION \(table)"), logger: logger)
                }
                try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"), logger: logger)
                return Int(count)
            }
            outcome.daysDropped += 1
            logger.info("day partition dropped", metadata: ["table": "\(table)"])
        }
        outcome.recordsRemoved += try await PostgresErrors.run("remove old records of the default partition") {
            let rows = try await client.query("WITH gone AS (DELETE FROM events_default WHERE create_time < \(end) RETURNING 1) SELECT count(*) FROM gone", logger: logger)
            var count: Int64 = 0
            for try await value in rows.decode(Int64.self) { count = value }
            return Int(count)
        }
        return outcome
    }
}
