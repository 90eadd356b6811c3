/// The client's timer clock with its type erased: durations since the persister started, and
/// sleeping until one of them. Deadlines are computed by the caller when a timer is armed, so
/// a test that advances its clock before the timer task runs still sees the timer fire.
struct Timebase: Sendable {
    /// Time elapsed since the timebase was made.
    let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleeper = { deadline in
            // One nanosecond early: a deadline already reached when the sleep begins then returns
            // at once on every clock (a test clock suspends a sleep until exactly "now").
            try await clock.sleep(until: start.advanced(by: deadline - .nanoseconds(1)), tolerance: nil)
        }
    }

    /// Sleeps until `deadline` (an ``elapsed`` value).
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(until deadline: Duration) async throws {
        try await sleeper(deadline)
    }
}
