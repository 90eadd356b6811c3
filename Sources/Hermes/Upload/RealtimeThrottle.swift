/// At most one realtime upload trigger per namespace per interval (specification §4.7: 2 s), and none
/// lost: a realtime record that arrives inside the window defers one trigger to the window's
/// end, so it goes up then, not at the next periodic tick. A pure state machine of `now`.
struct RealtimeThrottle: Sendable {
    var interval: Duration = .seconds(2)
    private var windows: [String: Window] = [:]

    private struct Window {
        var lastTrigger: Duration
        var deferred: Bool
    }

    /// What to do about a realtime record.
    enum Decision: Sendable, Equatable {
        /// Trigger a round now.
        case triggerNow
        /// Trigger a round at this deadline (the window's end), then call ``deferredTriggerFired(_:now:)``.
        case trigger(at: Duration)
        /// A trigger is already deferred to the window's end: nothing to do.
        case alreadyDeferred
    }

    /// Decides for a realtime record in `namespace` at time `now`, and records the decision.
    mutating func record(_ namespace: String, now: Duration) -> Decision {
        guard let window = windows[namespace], now - window.lastTrigger < interval else {
            windows[namespace] = Window(lastTrigger: now, deferred: false)
            return .triggerNow
        }
        guard !window.deferred else { return .alreadyDeferred }
        windows[namespace]?.deferred = true
        return .trigger(at: window.lastTrigger + interval)
    }

    /// The deferred trigger of `namespace` fired at `now`: it opens the next window.
    mutating func deferredTriggerFired(_ namespace: String, now: Duration) {
        windows[namespace] = Window(lastTrigger: now, deferred: false)
    }
}
