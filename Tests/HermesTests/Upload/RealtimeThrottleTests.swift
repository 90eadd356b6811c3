@testable import Hermes
import Testing

struct RealtimeThrottleTests {
    @Test func aRecordInsideTheWindowDefersOneTriggerToTheWindowsEnd() {
        var throttle = RealtimeThrottle()
        let decisions = [
            throttle.record("hermes", now: .zero),
            throttle.record("hermes", now: .milliseconds(500)),
            throttle.record("hermes", now: .milliseconds(1_999)),
            throttle.record("JZ", now: .milliseconds(1_999)),
        ]
        #expect(decisions == [.triggerNow, .trigger(at: .seconds(2)), .alreadyDeferred, .triggerNow])

        // The deferred trigger opens the next window
        throttle.deferredTriggerFired("hermes", now: .seconds(2))
        #expect(throttle.record("hermes", now: .milliseconds(2_100)) == .trigger(at: .seconds(4)))
        #expect(throttle.record("JZ", now: .milliseconds(4_000)) == .triggerNow)
    }
}
