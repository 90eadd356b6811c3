import HermesCollector
import HermesCollectorPostgres
import PostgresNIO
import Testing

/// Dropping a day partition while another session holds the day's table or `events` itself.
extension PostgresCollectorStorageTests {
    @Test func aDayHeldByAnotherSessionGoesOnceFreedWhileInsertsIntoTodayGoOn() async throws {
        try await Self.withOldDay { storage, old in
            let today = try CollectorStorageContractTests.record("today", createTime: PostgresCollectorStorage.now())
            try await storage.client.withConnection { other in
                // Given another session reading the old day's table in an open transaction (as a
                // vacuum of that table holds it)
                try await other.query("BEGIN", logger: TestStorage.logger)
                try await other.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(old.tableName) IN ACCESS SHARE MODE"), logger: TestStorage.logger)
                // When a retention pass starts and waits for that table
                async let removal = storage.removeDays(before: old.upperBound)
                try await Self.waitForALockAwaited(on: old.tableName, storage)
                // Then a batch for today is stored meanwhile
                #expect(try await storage.store(CollectorStorageContractTests.batch([today])).stored == 1)
                // And once the other session ends, the old day goes
                try await other.query("COMMIT", logger: TestStorage.logger)
                #expect(try await removal == RetentionOutcome(daysDropped: 1, recordsRemoved: 1))
            }
            #expect(try await storage.partitions().contains(old) == false)
            #expect(try await storage.events(EventQuery()).map(\.reportID) == ["today"])
        }
    }

    @Test func aPassThatCannotLockEventsInTimeFailsAndLeavesTheDayForTheNext() async throws {
        try await Self.withOldDay { storage, old in
            try await storage.client.withConnection { other in
                // Given another session reading `events` in an open transaction (a long query)
                try await other.query("BEGIN", logger: TestStorage.logger)
                try await other.query("LOCK TABLE ONLY events IN ACCESS SHARE MODE", logger: TestStorage.logger)
                // When a retention pass runs, it gives up (after the detach's lock timeout)
                await #expect(throws: CollectorError.self) { try await storage.removeDays(before: old.upperBound) }
                try await other.query("COMMIT", logger: TestStorage.logger)
            }
            // Then the day and its record are still there, and the next pass removes them
            #expect(try await storage.partitions().contains(old))
            #expect(try await storage.events(EventQuery()).map(\.reportID) == ["old"])
            #expect(try await storage.removeDays(before: old.upperBound) == RetentionOutcome(daysDropped: 1, recordsRemoved: 1))
            #expect(try await storage.events(EventQuery()).isEmpty)
        }
    }

    @Test func aDayNeverAnalysedIsAnalysedThenCountedExactlyWhenSmallerThanTheSample() async throws {
        try await Self.withOldDay { storage, old in
            // Given 300 records in the old day, whose table was never analysed
            try await Self.store(299, into: old, storage, from: 1)
            #expect(try await Self.plannerRows(of: old.tableName, storage) == -1)
            // When it is dropped, it counts what PostgreSQL's analysis found: all 300
            #expect(try await storage.removeDays(before: old.upperBound) == RetentionOutcome(daysDropped: 1, recordsRemoved: 300))
            #expect(try await storage.events(EventQuery()).isEmpty)
        }
    }

    @Test func aDayAnalysedBeforeItGrewIsEstimatedAtItsSizeNow() async throws {
        try await Self.withOldDay { storage, old in
            // Given an old day analysed at 1,000 records that then grew to 2,000
            try await Self.store(999, into: old, storage, from: 1)
            try await storage.client.query(PostgresQuery(unsafeSQL: "ANALYZE \(old.tableName)"), logger: TestStorage.logger)
            try await Self.store(1_000, into: old, storage, from: 1_000)
            #expect(try await Self.plannerRows(of: old.tableName, storage) == 1_000)
            // Then its estimate scales the analysis to the table's pages now, as the planner does
            let estimate = try await storage.estimatedRows(of: old.tableName)
            #expect((1_800...2_200).contains(estimate))
            // And dropping it reports that estimate and leaves none of its records
            #expect(try await storage.removeDays(before: old.upperBound) == RetentionOutcome(daysDropped: 1, recordsRemoved: estimate))
            #expect(try await storage.events(EventQuery()).isEmpty)
        }
    }

    /// Stores `count` more records in `day`, with ids numbered from `first`.
    private static func store(_ count: Int, into day: DayPartition, _ storage: PostgresCollectorStorage, from first: Int) async throws {
        let records = try (first..<first + count).map {
            try CollectorStorageContractTests.record("old-\($0)", createTime: day.lowerBound + Int64($0))
        }
        #expect(try await storage.store(CollectorStorageContractTests.batch(records)).stored == count)
    }

    /// `pg_class.reltuples` of `table`: -1 until it is analysed or vacuumed.
    private static func plannerRows(of table: String, _ storage: PostgresCollectorStorage) async throws -> Double? {
        let rows = try await storage.client.query(
            PostgresQuery(unsafeSQL: "SELECT reltuples::float8 FROM pg_class WHERE oid = '\(table)'::regclass"), logger: TestStorage.logger
        )
        for try await value in rows.decode(Double.self) { return value }
        return nil
    }

    /// A fresh store holding one record ten days back, in that day's own partition (which
    /// autovacuum leaves alone, so that only the test analyses it).
    private static func withOldDay(_ body: (PostgresCollectorStorage, DayPartition) async throws -> Void) async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { store in
                let storage = try #require(store as? PostgresCollectorStorage)
                let old = DayPartition(day: DayPartition(containing: PostgresCollectorStorage.now()).day - 10)
                try await storage.createPartition(old)
                try await storage.client.query(
                    PostgresQuery(unsafeSQL: "ALTER TABLE \(old.tableName) SET (autovacuum_enabled = false)"), logger: TestStorage.logger)
                let record = try CollectorStorageContractTests.record("old", createTime: old.lowerBound)
                #expect(try await storage.store(CollectorStorageContractTests.batch([record])).stored == 1)
                try await body(storage, old)
            }
        }
    }

    /// Returns once some session waits for a lock on `table` (asking the server up to 2,000 times).
    private static func waitForALockAwaited(on table: String, _ storage: PostgresCollectorStorage) async throws {
        for _ in 0..<2_000 {
            let rows = try await storage.client.query(
                PostgresQuery(unsafeSQL: "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = '\(table)'::regclass"),
                logger: TestStorage.logger
            )
            for try await waiting in rows.decode(Int64.self) where waiting > 0 { return }
        }
        throw TestStorageError("no session waited for a lock on \(table)")
    }
}
