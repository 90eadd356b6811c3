import Foundation
import GRDB
@testable import HermesCollector
import HermesWire
import Testing

extension SQLiteCollectorStorageTests {
    static func batch(_ ids: [String], payload: UInt8? = nil, batchID: String? = nil) throws -> IngestBatch {
        IngestBatch(
            records: try ids.map { try CollectorStorageContractTests.record($0, payload: payload.map { [$0] }) }, deviceID: "d", batchID: batchID,
            receivedAt: 1)
    }

    /// A store whose database refuses any record with `REPORT_ID` "poison", by aborting the
    /// statement (`ABORT`) or rolling back the whole transaction (`ROLLBACK`).
    static func poisonedStorage(_ raise: String) async throws -> SQLiteCollectorStorage {
        let storage = try SQLiteCollectorStorage.inMemory()
        try await storage.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER poison BEFORE INSERT ON events WHEN NEW.report_id = 'poison'
                    BEGIN SELECT RAISE(\(raise), 'poisoned record'); END
                    """)
        }
        return storage
    }

    static func outcomes(_ results: [Result<StoreOutcome, any Error>]) -> [StoreOutcome?] {
        results.map { try? $0.get() }
    }

    @Test func concurrentOverlappingUploadsStoreEachRecordOnceAndTheirCountsAddUp() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-collector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteCollectorStorage(path: directory.appendingPathComponent("collector.sqlite").path)

        // When 40 batches of 20 records, each overlapping the next by half, are stored at once,
        // every batch twice
        let batches = try (0..<40).map { index in try Self.batch((index * 10..<index * 10 + 20).map { "r\($0)" }) }
        let answers = try await withThrowingTaskGroup(of: (IngestBatch, StoreOutcome, Set<String>).self) { group in
            for batch in batches + batches {
                group.addTask {
                    let outcome = try await storage.store(batch)
                    // What a reader sees as soon as the store answered
                    let visible = try await storage.events(EventQuery(limit: EventQuery.maximumLimit)).map(\.reportID)
                    return (batch, outcome, Set(visible))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then each distinct record is stored once, the stored counts add up to them, each answer
        // accounts for its whole batch, and its records were committed before it was given
        let distinct = Set(batches.flatMap { $0.records.map(\.reportID) })
        #expect(try await storage.count(EventQuery()) == distinct.count)
        #expect(answers.map(\.1.stored).reduce(0, +) == distinct.count)
        #expect(answers.map { $0.1.stored + $0.1.duplicates } == answers.map(\.0.records.count))
        for (batch, _, visible) in answers {
            #expect(batch.records.allSatisfy { visible.contains($0.reportID) })
        }
    }

    @Test func recordCarriedByTwoBatchesOfOneGroupIsStoredByTheFirst() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let first = try Self.batch(["a", "shared"], payload: 1, batchID: "first")
        let second = try Self.batch(["shared", "b"], payload: 2, batchID: "second")

        // When both commit in one group
        let results = await SQLiteCollectorStorage.commit([first, second], to: storage.writer)

        // Then the first stores it, the second counts it as a duplicate
        #expect(Self.outcomes(results) == [StoreOutcome(stored: 2, duplicates: 0), StoreOutcome(stored: 1, duplicates: 1)])
        let events = try await storage.events(EventQuery())
        #expect(events.map(\.reportID) == ["a", "shared", "b"])
        #expect(events.map(\.batchID) == ["first", "first", "second"])
    }

    @Test func batchWhoseInsertFailsIsRolledBackAloneAndTheRestOfItsGroupCommits() async throws {
        let storage = try await Self.poisonedStorage("ABORT")
        let batches = [
            try Self.batch(["a1", "a2"]),
            try Self.batch(["b1", "shared", "poison", "b2"]),
            try Self.batch(["shared", "c1"]),
        ]

        // When the batch with the refused record commits in one group between two others
        let results = await SQLiteCollectorStorage.commit(batches, to: storage.writer)

        // Then it fails and leaves nothing of itself (not even the records before the refused
        // one), and the others are stored as if it had never come
        #expect(Self.outcomes(results) == [StoreOutcome(stored: 2, duplicates: 0), nil, StoreOutcome(stored: 2, duplicates: 0)])
        #expect(try await storage.events(EventQuery()).map(\.reportID) == ["a1", "a2", "shared", "c1"])
    }

    @Test func batchThatLosesTheWholeTransactionFailsAloneAfterTheOthersAreCommittedOneByOne() async throws {
        let storage = try await Self.poisonedStorage("ROLLBACK")
        let batches = [
            try Self.batch(["a1", "shared"]),
            try Self.batch(["b1", "poison"]),
            try Self.batch(["shared", "c1"]),
        ]

        // When a record's failure makes SQLite roll back the group's whole transaction
        let results = await SQLiteCollectorStorage.commit(batches, to: storage.writer)

        // Then each batch is committed again on its own: only the poisoned one fails
        #expect(Self.outcomes(results) == [StoreOutcome(stored: 2, duplicates: 0), nil, StoreOutcome(stored: 1, duplicates: 1)])
        #expect(try await storage.events(EventQuery()).map(\.reportID) == ["a1", "shared", "c1"])
    }

    @Test func failedStoreIsAStorageErrorAndStoresNothing() async throws {
        let storage = try await Self.poisonedStorage("ABORT")
        let batch = try Self.batch(["a", "poison"])
        await #expect {
            try await storage.store(batch)
        } throws: { error in
            (error as? CollectorError)?.code == .storageFailed
        }
        #expect(try await storage.count(EventQuery()) == 0)
    }
}
