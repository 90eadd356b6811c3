import HermesWire

/// The client's ``SessionTracker`` behind a lock, fed with the client's monotonic clock.
final class SessionController: Sendable {
    let clock: MonotonicClock
    private let tracker: Locked<SessionTracker>

    init(clock: MonotonicClock, timeout: Duration) {
        self.clock = clock
        tracker = Locked(SessionTracker(timeout: timeout))
    }

    /// Runs `step` on the tracker with the current time.
    func step(_ step: (inout SessionTracker, Duration) -> [SessionTransition]) -> [SessionTransition] {
        let now = clock.now()
        return tracker.withLock { step(&$0, now) }
    }
}
