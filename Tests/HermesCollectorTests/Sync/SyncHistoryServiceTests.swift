import HermesCollector
import HermesWire
import Testing

struct SyncHistoryServiceTests {
    @Test func passForgetsTombstonesOlderThanTheKeptDaysOnly() async throws {
        let storage = try SQLiteSyncStorage.inMemory()
        let rules = SyncStorageContractTests.rules
        let day: Int64 = 86_400_000
        for (sequence, deletedAt) in [(Int64(1), 1 * day), (3, 5 * day)] {
            let created = try await storage.apply(
                SyncStorageContractTests.create(sequence, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1,
                rules: rules, now: 0
            )
            let record = try #require(created.entries.first?.record)
            let delete = SyncChangeSet(
                sequence: sequence + 1,
                entries: [.init(.delete, SyncRecord(type: "teams", id: record.id, revision: record.revision, attributes: nil))])
            _ = try await storage.apply(delete, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: rules, now: deletedAt)
        }
        let service = SyncHistoryService(storage: storage, days: 2, logger: CollectorFixture.silentLogger)

        #expect(await service.pass(now: 4 * day) == 1)
        #expect(await service.pass(now: 4 * day) == 0)
        #expect(try await storage.page(after: 1, cursor: nil, limit: 10).reset)
        #expect(try await !storage.page(after: 3, cursor: nil, limit: 10).reset)
    }
}
