@testable import hermes
import Testing

/// How `hermes bench retention` reads the stall from the times its inserts completed.
struct RetentionBenchmarkTests {
    private static let base = ContinuousClock.now

    private static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        base.advanced(by: .milliseconds(milliseconds))
    }

    @Test func theStallIsTheLongestStretchWithoutACompletionAcrossTheDrop() {
        // Given inserts completing at 0, 10, 100, 110 and 120 ms, and a drop from 15 to 105 ms
        let completions = [0, 10, 100, 110, 120].map(Self.at)
        // Then the stall runs from the completion at 10 ms (before the drop began) to the one at 100 ms
        #expect(RetentionBenchmark.longestGap(in: completions, from: Self.at(15), to: Self.at(105)) == .milliseconds(90))
    }

    @Test func aDropWithNoCompletionInsideStallsFromTheLastBeforeToTheFirstAfter() {
        let completions = [0, 200].map(Self.at)
        #expect(RetentionBenchmark.longestGap(in: completions, from: Self.at(50), to: Self.at(60)) == .milliseconds(200))
    }
}
