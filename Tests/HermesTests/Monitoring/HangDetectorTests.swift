@testable import Hermes
import Testing

struct HangDetectorTests {
    @Test func aQueueThatAnswersInTimeIsNoHang() {
        var detector = HangDetector(threshold: .seconds(2))

        #expect(detector.tick(now: .zero) == .ping(id: 1))
        #expect(detector.answered(1, now: .milliseconds(1_999)) == .none)
        #expect(detector.tick(now: .seconds(2)) == .ping(id: 2))
    }

    @Test func aStallIsReportedOnceWhenItEndsWithItsWholeDuration() {
        var detector = HangDetector(threshold: .seconds(2))
        #expect(detector.tick(now: .zero) == .ping(id: 1))

        // While the queue is stuck, ticks send no second ping and report nothing
        for second in 1...9 {
            #expect(detector.tick(now: .seconds(second)) == .none)
        }

        // The stall ends: one report of 9.5 s; the same ping answering again reports nothing
        #expect(detector.answered(1, now: .milliseconds(9_500)) == .reportHang(duration: .milliseconds(9_500)))
        #expect(detector.answered(1, now: .seconds(10)) == .none)
        #expect(detector.tick(now: .seconds(10)) == .ping(id: 2))
    }

    @Test func aWaitOfExactlyTheThresholdIsAHang() {
        var detector = HangDetector(threshold: .seconds(2))
        _ = detector.tick(now: .seconds(1))

        #expect(detector.answered(1, now: .seconds(3)) == .reportHang(duration: .seconds(2)))
    }

    @Test func ticksComeEveryHalfThreshold() {
        #expect(HangDetector(threshold: .seconds(2)).interval == .seconds(1))
    }
}
