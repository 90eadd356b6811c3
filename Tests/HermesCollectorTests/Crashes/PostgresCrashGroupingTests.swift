import HermesCollector
import HermesCollectorPostgres
import HermesWire
import PostgresNIO
import Testing

/// What grouping crashes must survive on PostgreSQL only: several collectors on one database,
/// and ids committed out of order.
@Suite(.enabled(if: StorageKind.available.contains(.postgres)))
struct PostgresCrashGroupingTests {
    @Test func twoStoresGroupingAtOnceCountEachCrashOnce() async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { first in
                try await database.withStore { second in
                    // Given 600 crashes in 12 groups
                    let crashes = try (0..<600).map { try CrashGroupStorageTests.crash("c\($0)", in: "f\($0 % 12)") }
                    try await CrashGroupStorageTests.store(crashes, in: first)
                    // When both stores step at once until each has nothing more to do
                    let grouped = try await withThrowingTaskGroup(of: [Int].self) { group in
                        for store in [first, second] {
                            group.addTask { try await CrashGroupStorageTests.groupAll(store, limit: 50) }
                        }
                        return try await group.reduce(0) { $0 + $1.reduce(0, +) }
                    }
                    // Then the steps grouped each crash once, and each group counts its 50
                    #expect(grouped == 600)
                    let groups = try await second.crashGroups(since: nil, until: nil, limit: 100)
                    #expect(groups.count == 12)
                    #expect(groups.allSatisfy { $0.count == 50 })
                }
            }
        }
    }

    @Test func crashWhoseLowerIdCommitsAfterGroupingMovedOnIsGrouped() async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { store in
                let storage = try #require(store as? PostgresCollectorStorage)
                let receivedAt = CrashGroupStorageTests.day
                try await storage.client.withConnection { connection in
                    // Given a transaction that took an id for a crash and has not committed yet
                    try await connection.query("BEGIN", logger: TestStorage.logger)
                    let slow = IngestBatch(
                        records: [try CrashGroupStorageTests.crash("slow")], deviceID: "d", batchID: "slow", receivedAt: receivedAt)
                    #expect(try await PostgresCollectorStorage.insert(EventRows(slow), on: connection, logger: TestStorage.logger) == 1)
                    // When a crash with a higher id, received a minute later (another minute's rollup
                    // row, which the open transaction does not hold), is stored and grouped
                    try await CrashGroupStorageTests.store([try CrashGroupStorageTests.crash("fast")], in: storage, receivedAt: receivedAt + 60_000)
                    #expect(try await CrashGroupStorageTests.groupAll(storage) == [1, 0])
                    try await connection.query("COMMIT", logger: TestStorage.logger)
                }
                // Then the first crash, committed last, is grouped by the next step
                #expect(try await CrashGroupStorageTests.groupAll(storage) == [1, 0])
                let events = try await storage.events(EventQuery(namespace: ConfigurationDocument.hermesNamespace))
                #expect(events.first { $0.reportID == "slow" }!.id < events.first { $0.reportID == "fast" }!.id)
                #expect(try await storage.crashGroups(since: nil, until: nil, limit: 10).map(\.count) == [2])
            }
        }
    }
}
