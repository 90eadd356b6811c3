@testable import HermesHarness
import HermesWire
import Testing

/// The sync bench's push intervals, and a short run in process.
struct SyncBenchTests {
    @Test func pushIntervalsAreExponentialWithTheGivenMean() {
        var random = SplitMix64(seed: 17)
        let draws = (0..<20_000).map { _ in SyncBench.exponential(mean: .milliseconds(1_000), using: &random) }
        let mean = draws.reduce(Duration.zero, +) / draws.count
        // An exponential distribution leaves e⁻¹ of its draws above the mean.
        let aboveMean = Double(draws.filter { $0 > .milliseconds(1_000) }.count) / Double(draws.count)
        #expect(mean > .milliseconds(970) && mean < .milliseconds(1_030))
        #expect(abs(aboveMean - 0.368) < 0.01)
    }

    @Test func shortRunReportsEveryFigure() async throws {
        let report = try await SyncBench(records: 1_000, devices: 3, pushes: 2, interval: .milliseconds(5), runs: 1, seed: 1, offlineChangeSets: 100)
            .run()
        let figures = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.key, $0.value) })
        #expect(
            Set(figures.keys) == [
                "catch_up_100k_s", "catch_up_bytes_per_record", "snapshot_start_s", "offline_queue_s", "dependent_queue_exchanges", "push_p50_ms",
                "push_p99_ms",
                "push_received_records",
                "saturated_push_p50_ms", "saturated_push_p99_ms", "change_sets_per_s",
            ])
        #expect(figures.filter { $0.key != "push_received_records" }.values.allSatisfy { $0 > 0 })
        // A note is about 70 bytes of JSON in a page; gzipped on the wire, well under half that
        #expect(try #require(figures["catch_up_bytes_per_record"]) < 30)
        // 100 change sets building on each other: one request
        #expect(figures["dependent_queue_exchanges"] == 1)
    }
}
