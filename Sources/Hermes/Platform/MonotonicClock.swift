import HermesWire

/// The client's injected clock as offsets from the client's creation, with sleeps to a fixed
/// deadline: a timer's deadline is set when it is scheduled, not when its task first runs, so
/// a test that advances a test clock right after scheduling still sees the timer fire.
///
/// `package`: HermesLogging's timers run on the same clock.
package struct MonotonicClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// The latest deadline a sleep returned for: a sleep wakes one nanosecond early, and
    /// ``now()`` never reads earlier than a deadline that was slept to.
    private let reached = Locked(Duration.zero)

    package init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset in
            // One nanosecond early, so that a deadline the clock has reached returns at once on
            // every clock, with no window between a check and the sleep: a test clock keeps a
            // sleep to exactly its current instant suspended until its next advance.
            try await clock.sleep(until: origin.advanced(by: offset - .nanoseconds(1)), tolerance: nil)
        }
    }

    /// Time since the clock was made.
    package func now() -> Duration {
        max(elapsed(), reached.withLock { $0 })
    }

    /// Sleeps until `deadline` (an offset like ``now()``); returns at once if it has passed.
    /// Once it returns, ``now()`` is at least `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled.
    package func sleep(until deadline: Duration) async throws {
        try await sleeper(deadline)
        reached.withLock { $0 = max($0, deadline) }
    }
}
