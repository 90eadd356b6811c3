package import HermesCollector
import Logging
import PostgresNIO

extension PostgresCollectorStorage {
    /// Applies the collector's migrations not applied yet (``PostgresMigrator``), then those of
    /// alerts (``PostgresAlertSchema``) and crash groups (``PostgresCrashSchema``), each with its
    /// own ledger.
    func migrate() async throws(CollectorError) {
        let migrator = PostgresMigrator(client: client, logger: logger)
        try await migrator.apply(PostgresSchema.migrations, ledger: "hermes_migrations")
        try await migrator.apply(PostgresAlertSchema.migrations, ledger: PostgresAlertSchema.ledger)
        try await migrator.apply(PostgresCrashSchema.migrations, ledger: PostgresCrashSchema.ledger)
    }

    /// Makes the day partitions from one day before the day of `now` to
    /// ``Options/partitionDaysAhead`` days after it, those missing only.
    package func ensurePartitions(around now: Int64) async throws(CollectorError) {
        let existing = try await partitions()
        for partition in DayPartition.around(now, behind: 1, ahead: options.partitionDaysAhead) where !existing.contains(partition) {
            try await createPartition(partition)
        }
    }

    /// The day partitions `events` has now.
    package func partitions() async throws(CollectorError) -> Set<DayPartition> {
        try await PostgresErrors.run("list the partitions") {
            let rows = try await client.query(
                """
                SELECT c.relname FROM pg_inherits i
                JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'events'::regclass
                """, logger: logger)
            var days = Set<DayPartition>()
            for try await name in rows.decode(String.self) {
                if let day = DayPartition(tableName: name) { days.insert(day) }
            }
            return days
        }
    }

    /// Makes one day's partition: a new table, the day's rows moved into it from the default
    /// partition (records whose time was out of range when they came), then attached. The
    /// default partition is locked meanwhile, so no row of that day can slip into it.
    package func createPartition(_ partition: DayPartition) async throws(CollectorError) {
        let table = partition.tableName
        try await PostgresErrors.run("create the partition \(table)") {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.Lock.partitions.rawValue))", logger: logger)
                let exists = try await connection.query("SELECT to_regclass(\(table)) IS NOT NULL", logger: logger)
                for try await found in exists.decode(Bool.self) where found { return }
                let range = "create_time >= \(partition.lowerBound) AND create_time < \(partition.upperBound)"
                try await connection.run(
                    [
                        "LOCK TABLE events_default IN ACCESS EXCLUSIVE MODE",
                        "CREATE TABLE \(table) (LIKE events INCLUDING DEFAULTS)",
                        "WITH moved AS (DELETE FROM events_default WHERE \(range) RETURNING *) INSERT INTO \(table) SELECT * FROM moved",
                        "ALTER TABLE events ATTACH PARTITION \(table) FOR VALUES FROM (\(partition.lowerBound)) TO (\(partition.upperBound))",
                    ], logger: logger)
                logger.info("partition created", metadata: ["table": "\(table)"])
            }
        }
    }

    /// Every hour until cancelled, makes the partitions around the new day.
    func keepPartitions() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(3_600))
                try await ensurePartitions(around: Self.now())
            } catch is CancellationError {
                return
            } catch {
                logger.error("could not make the day partitions", metadata: ["error": "\(error)"])
            }
        }
    }
}
