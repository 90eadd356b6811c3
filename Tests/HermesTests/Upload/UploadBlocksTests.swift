@testable import Hermes
import Logging
import MetricsTestKit
import Testing

/// What a pause shows: the block in diagnostics, one log line per pause, the metric.
struct UploadBlocksTests {
    static let refusal = ResponseAction.Refusal(reason: .collectorNotFound, status: 404, code: nil, message: "HTTP 404")

    @Test func eachPauseIsShownLoggedOnceAndCountedUntilItIsLifted() throws {
        // Given blocks logging to a capture and counting in a test factory
        let logs = CapturedLogs()
        let metrics = TestMetrics()
        let blocks = UploadBlocks(logger: logs.logger, metricsFactory: metrics)

        // When JZ is paused twice (at 1,000 ms for 60 s, at 61,000 ms for 120 s)
        blocks.apply(.paused(Self.refusal, count: 1, delay: .seconds(60)), namespace: "JZ", now: 1_000)
        blocks.apply(.paused(Self.refusal, count: 2, delay: .seconds(120)), namespace: "JZ", now: 61_000)
        let paused = blocks.snapshot

        // Then the block keeps when the refusals began and says when uploads try again
        #expect(
            paused == [
                "JZ": UploadBlock(
                    reason: .collectorNotFound, status: 404, code: nil, message: "HTTP 404", pauses: 2, since: 1_000, retryAt: 181_000
                )
            ])
        let lines = logs.all.filter { $0.level == .warning }
        #expect(lines.map(\.message) == Array(repeating: "hermes: the collector refused uploads; paused them, every record is kept", count: 2))
        #expect(lines.last?.metadata["reason"] == "collector_not_found")
        #expect(lines.last?.metadata["retry_in_s"] == "120")
        #expect(try metrics.expectCounter("hermes.uploads.paused", [("namespace", "JZ"), ("reason", "collector_not_found")]).totalValue == 2)

        // And when the collector answers again, the block goes, with one line saying so
        blocks.apply(.lifted, namespace: "JZ", now: 200_000)
        blocks.lift(["JZ", "hermes"], why: "nothing left to lift")
        #expect(blocks.snapshot.isEmpty)
        #expect(logs.all.filter { $0.message == "hermes: uploads resumed" }.count == 1)
    }
}
