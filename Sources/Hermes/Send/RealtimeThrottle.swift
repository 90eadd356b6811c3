/// At most one realtime upload trigger per namespace per interval (specification §4.7: 2 s).
struct RealtimeThrottle: Sendable {
    var interval: Duration = .seconds(2)
    private var lastTrigger: [String: Duration] = [:]

    /// Whether a realtime record in `namespace` at time `now` triggers an upload; records the trigger.
    mutating func shouldTrigger(_ namespace: String, now: Duration) -> Bool {
        if let last = lastTrigger[namespace], now - last < interval { return false }
        lastTrigger[namespace] = now
        return true
    }
}
