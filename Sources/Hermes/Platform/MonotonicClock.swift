/// The client's injected clock as offsets from the client's creation, with sleeps to a fixed
/// deadline: a timer's deadline is set when it is scheduled, not when its task first runs, so
/// a test that advances a test clock right after scheduling still sees the timer fire.
struct MonotonicClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset in
            // A deadline already reached returns here: a test clock suspends a sleep to exactly
            // its current instant until the next advance, so a timer that registered just after
            // the test advanced to its deadline would never fire.
            guard origin.duration(to: clock.now) < offset else { return try Task.checkCancellation() }
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
        }
    }

    /// Time since the client was created.
    func now() -> Duration {
        elapsed()
    }

    /// Sleeps until `deadline` (an offset like ``now()``); returns at once if it has passed.
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(until deadline: Duration) async throws {
        try await sleeper(deadline)
    }
}
