import HermesCollector
import HermesWire
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

    @Test func aFailedPassIsLoggedOnceAndTheNextOneGroups() async throws {
        let storage = try SwitchableStorage()
        try await CrashGroupStorageTests.store([try CrashGroupStorageTests.crash("c1")], in: storage)
        let recorder = RequestObservingMiddlewareTests.Recorder()
        let service = CrashGroupingService(storage: storage, logger: recorder.logger)
        // When a pass runs while the store is down, and another after it is back
        storage.isDown = true
        #expect(await service.pass() == 0)
        storage.isDown = false
        #expect(await service.pass() == 1)
        // Then the failed pass logged one error, and the crash is grouped
        let errors = recorder.entries.withLock { $0 }.filter { $0.message == "crash grouping pass failed; trying again at the next one" }
        #expect(errors.count == 1)
        #expect(try await storage.crashGroups(since: nil, until: nil, limit: 10).map(\.count) == [1])
    }
}
