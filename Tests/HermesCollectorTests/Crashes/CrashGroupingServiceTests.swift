import HermesCollector
import Testing

struct CrashGroupingServiceTests {
    @Test func aPassStepsUntilCaughtUp() async throws {
        // Given more crashes than one step takes
        let storage = try SQLiteCollectorStorage.inMemory()
        let count = CrashGroupingService.stepSize * 2 + 5
        try await CrashGroupStorageTests.store((0..<count).map { try CrashGroupStorageTests.crash("c\($0)") }, in: storage)
        let service = CrashGroupingService(storage: storage, logger: CollectorFixture.silentLogger)
        // When a pass runs
        // Then it groups them all, and the next one finds nothing
        #expect(await service.pass() == count)
        #expect(await service.pass() == 0)
        #expect(try await storage.crashGroups(since: nil, until: nil, limit: 10).map(\.count) == [count])
    }

    @Test func aFailedPassIsLoggedAndTheNextOneGroups() async throws {
        let storage = try SwitchableStorage()
        try await CrashGroupStorageTests.store([try CrashGroupStorageTests.crash("c1")], in: storage)
        let service = CrashGroupingService(storage: storage, logger: CollectorFixture.silentLogger)
        storage.isDown = true
        #expect(await service.pass() == 0)
        storage.isDown = false
        #expect(await service.pass() == 1)
    }
}
