public import HermesCollector
import Logging
import PostgresNIO

extension PostgresCollectorStorage {
    /// The longest a retention pass waits for a day's table and the default partition (inserts
    /// into other days go on meanwhile).
    static let partitionLockTimeout = "10s"
    /// The longest a retention pass waits for its moment's lock on `events`: the longest it may
    /// hold up inserts.
    static let detachLockTimeout = "500ms"
    /// The statistics target of the analysis a day never analysed gets before it is dropped: it
    /// reads 3,000 pages at most (300 per unit) instead of the default 30,000, plenty for a row
    /// count and ten times cheaper; the table's column statistics serve no query afterwards.
    static let countingStatisticsTarget = 10

    /// Drops the day partitions that end at or before the cutoff's day, oldest first, and deletes
    /// the default partition's rows older than that day, then the crash groups' membership rows
    /// of those days (the groups stay).
    ///
    /// Each partition is detached in a transaction of its own, then dropped outside it, where only
    /// the detached table is locked. The transaction first locks the day's table and the default
    /// partition, which inserts into other days never touch, waiting up to 10 s (a vacuum of the
    /// old day, which holds its table for as long as it runs, is cancelled by PostgreSQL after
    /// `deadlock_timeout`). Only then does the detach take its moment's exclusive lock on
    /// `events`, with a `lock_timeout` of 500 ms: inserts wait at most that long. A partition
    /// whose locks cannot be had in time fails the pass and is tried again at the next one.
    ///
    /// A dropped day's records are not counted: ``RetentionOutcome/recordsRemoved`` adds the
    /// planner's estimate of each day (``estimatedRows(of:)``), read just before the detach so
    /// that its cost does not grow with the day; the default partition's deleted rows are
    /// counted exactly.
    ///
    /// (`DETACH PARTITION … CONCURRENTLY` would not block inserts at all, but PostgreSQL refuses
    /// it while the table has a default partition, which `events` keeps for out-of-range times.)
    public func removeDays(before cutoff: Int64) async throws -> RetentionOutcome {
        let end = UTCDay.start(of: cutoff)
        var outcome = RetentionOutcome(daysDropped: 0, recordsRemoved: 0)
        for partition in try await partitions().sorted() where partition.upperBound <= end {
            let table = partition.tableName
            outcome.recordsRemoved += try await PostgresErrors.run("remove the partition \(table)") {
                let rows = try await estimatedRows(of: table)
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.run(
                        [
                            "SET LOCAL lock_timeout = '\(Self.partitionLockTimeout)'",
                            "LOCK TABLE \(table), events_default IN ACCESS EXCLUSIVE MODE",
                            "SET LOCAL lock_timeout = '\(Self.detachLockTimeout)'",
                            "ALTER TABLE events DETACH PARTITION \(table)",
                        ], logger: logger)
                }
                try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"), logger: logger)
                return rows
            }
            outcome.daysDropped += 1
            logger.info("day partition dropped", metadata: ["table": "\(table)"])
        }
        outcome.recordsRemoved += try await PostgresErrors.run("remove old records of the default partition") {
            let rows = try await client.query(
                "WITH gone AS (DELETE FROM events_default WHERE create_time < \(end) RETURNING 1) SELECT count(*) FROM gone", logger: logger)
            var count: Int64 = 0
            for try await value in rows.decode(Int64.self) { count = value }
            return Int(count)
        }
        try await PostgresErrors.run("remove old crash group members") {
            _ = try await client.query("DELETE FROM crash_members WHERE create_time < \(end)", logger: logger)
        }
        try await PostgresErrors.run("remove old rollup rows") {
            for (sql, bound) in ConsoleSchema.removeRollups(before: end) {
                var binds = PostgresBindings()
                binds.append(bound)
                _ = try await client.query(PostgresQuery(unsafeSQL: Self.numbered(sql), binds: binds), logger: logger)
            }
        }
        return outcome
    }

    /// How many rows `table` holds by the planner's statistics, in a time that does not grow with
    /// the table: `pg_class.reltuples` scaled to the table's current size in pages, as the planner
    /// scales it (so rows added since the last analysis count). A table never analysed (an old day
    /// that autovacuum has not reached) is analysed first, reading a sample of at most 3,000 pages
    /// (``countingStatisticsTarget``): a table of up to 3,000 pages is counted exactly, a larger
    /// one extrapolated from the rows per page of the sample.
    package func estimatedRows(of table: String) async throws -> Int {
        if let rows = try await plannerRows(of: table) { return rows }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.run(["SET LOCAL default_statistics_target = \(Self.countingStatisticsTarget)", "ANALYZE \(table)"], logger: logger)
        }
        return try await plannerRows(of: table) ?? 0
    }

    /// The planner's row count of `table`, or `nil` while it has never been analysed or vacuumed
    /// (`reltuples` is -1 then).
    private func plannerRows(of table: String) async throws -> Int? {
        let rows = try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT CASE WHEN relpages = 0 THEN reltuples::float8
                                ELSE reltuples::float8 / relpages * (pg_relation_size(oid) / current_setting('block_size')::int8)
                           END
                    FROM pg_class WHERE oid = '\(table)'::regclass AND reltuples >= 0
                    """), logger: logger)
        for try await estimate in rows.decode(Double.self) { return Int(estimate.rounded()) }
        return nil
    }
}
