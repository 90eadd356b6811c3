import HermesCollector
import HermesWire
import Testing

struct RetentionServiceTests {
    @Test func aPassRemovesOldDaysAndCountsThem() async throws {
        // Given records 10 days and 1 day old, and a 7-day retention
        let storage = try SQLiteCollectorStorage.inMemory()
        let now: Int64 = 1_795_400_000_000
        let day = UTCDay.milliseconds
        _ = try await storage.store(
            CollectorStorageContractTests.batch([
                try CollectorStorageContractTests.record("old", createTime: now - 10 * day),
                try CollectorStorageContractTests.record("recent", createTime: now - day),
            ]))
        let metrics = CollectorMetrics()
        let service = RetentionService(storage: storage, days: 7, metrics: metrics, logger: CollectorFixture.silentLogger)
        // When a pass runs
        await service.pass(now: now)
        // Then the old record went, and the metrics say so
        #expect(try await storage.events(EventQuery()).map(\.reportID) == ["recent"])
        #expect(metrics.snapshot.retentionRecordsRemoved == 1)
        #expect(metrics.snapshot.retentionFailures == 0)
        #expect(metrics.prometheusText().contains("hermes_collector_retention_records_removed_total 1\n"))
    }

    @Test func aFailedPassIsCountedAndTheNextOneTries() async throws {
        let storage = try SwitchableStorage()
        let metrics = CollectorMetrics()
        let service = RetentionService(storage: storage, days: 7, metrics: metrics, logger: CollectorFixture.silentLogger)
        storage.isDown = true
        await service.pass(now: 1_795_400_000_000)
        storage.isDown = false
        await service.pass(now: 1_795_400_000_000)
        #expect(metrics.snapshot.retentionFailures == 1)
        #expect(metrics.prometheusText().contains("hermes_collector_retention_failures_total 1\n"))
    }
}
