/// A namespace's cellular bytes in the current 24-hour window (specification §6.1), as a value with
/// the rules as pure functions of `now`.
struct TrafficWindow: Sendable, Equatable {
    static let length: Int64 = 86_400_000

    /// When the window began (ms since 1970).
    var start: Int64
    /// Bytes sent on cellular since `start`.
    var usedBytes: Int

    /// The window in force at `now`: this one, or a fresh one once 24 h have passed (or the
    /// wall clock went backwards).
    func current(at now: Int64) -> TrafficWindow {
        (now - start >= Self.length || now < start) ? TrafficWindow(start: now, usedBytes: 0) : self
    }

    /// Whether more may be sent under `limitBytes`: not once the limit is reached.
    func allows(limitBytes: Int) -> Bool {
        usedBytes < limitBytes
    }

    /// Counts `bytes` sent at `now`, whatever the request's outcome.
    func adding(_ bytes: Int, at now: Int64) -> TrafficWindow {
        var window = current(at: now)
        window.usedBytes += bytes
        return window
    }
}
