@testable import Hermes
import Testing

/// The session state machine, driven with explicit times.
struct SessionTrackerTests {
    static let timeout = Duration.seconds(30 * 60)

    @Test func aSessionStartsOnce() {
        var tracker = SessionTracker(timeout: Self.timeout)
        #expect(tracker.start(id: "s1", now: .zero) == [.started(id: "s1")])
        #expect(tracker.start(id: "s2", now: .seconds(1)).isEmpty)
        #expect(tracker.current?.id == "s1")
    }

    @Test func comingBackAfterExactlyTheTimeoutKeepsTheSession() {
        var tracker = SessionTracker(timeout: Self.timeout)
        _ = tracker.start(id: "s1", now: .zero)
        tracker.didEnterBackground(now: .seconds(10))
        #expect(tracker.willEnterForeground(now: .seconds(10) + Self.timeout, newID: { "s2" }).isEmpty)
        #expect(tracker.current?.id == "s1")
    }

    @Test func comingBackAfterMoreThanTheTimeoutEndsTheSessionWhenTheAppLeft() {
        var tracker = SessionTracker(timeout: Self.timeout)
        _ = tracker.start(id: "s1", now: .seconds(5))
        tracker.didEnterBackground(now: .seconds(65))
        let transitions = tracker.willEnterForeground(now: .seconds(65) + Self.timeout + .milliseconds(1), newID: { "s2" })
        #expect(transitions == [.ended(id: "s1", duration: .seconds(60)), .started(id: "s2")])
        #expect(tracker.current == SessionTracker.Session(id: "s2", startedAt: .seconds(65) + Self.timeout + .milliseconds(1)))
        #expect(tracker.backgroundSince == nil)
    }

    @Test func onlyTheFirstBackgroundEventCounts() {
        var tracker = SessionTracker(timeout: .seconds(10))
        _ = tracker.start(id: "s1", now: .zero)
        tracker.didEnterBackground(now: .seconds(1))
        tracker.didEnterBackground(now: .seconds(8))
        #expect(tracker.willEnterForeground(now: .seconds(12), newID: { "s2" }).count == 2)
    }

    @Test func aForegroundWithoutABackgroundChangesNothing() {
        var tracker = SessionTracker(timeout: .seconds(10))
        _ = tracker.start(id: "s1", now: .zero)
        #expect(tracker.willEnterForeground(now: .seconds(3_600), newID: { "s2" }).isEmpty)
    }

    @Test func restartEndsTheSessionInProgressAndStartsTheNewOne() {
        var tracker = SessionTracker(timeout: Self.timeout)
        #expect(tracker.restart(id: "s1", now: .seconds(1)) == [.started(id: "s1")])
        #expect(tracker.restart(id: "s2", now: .seconds(4)) == [.ended(id: "s1", duration: .seconds(3)), .started(id: "s2")])
    }

    @Test func endingInTheBackgroundCountsUntilTheAppLeft() {
        var tracker = SessionTracker(timeout: Self.timeout)
        _ = tracker.start(id: "s1", now: .zero)
        tracker.didEnterBackground(now: .seconds(20))
        #expect(tracker.end(now: .seconds(500)) == [.ended(id: "s1", duration: .seconds(20))])
        #expect(tracker.end(now: .seconds(600)).isEmpty)
    }
}
