/// One namespace's upload state: at most one round at a time, the batch size (after 413s),
/// and the backoff after failures.
actor NamespaceUploader {
    /// What a call to ``run(force:jitter:now:round:)`` did.
    enum Run: Sendable {
        /// Not run: another round is running (it will run once more) or the namespace backs off.
        case skipped
        /// A round ran; `retryAt` (a ``MonotonicClock`` deadline) is set after a failure;
        /// `again` when triggers arrived meanwhile.
        case ran(UploadSummary, retryAt: Duration?, again: Bool)
    }

    private let policy = RetryPolicy()
    private var busy = false
    private var again = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var batchSize = BatchSize()
    private var failures = 0
    private var backoffUntil: Duration?

    /// Runs a round unless one is running or (for automatic triggers) the namespace backs off.
    /// - Parameters:
    ///   - force: an explicit `upload()`: waits for a running round, then runs, backoff or not.
    ///   - jitter: a uniform draw in `0..<1` for the backoff.
    ///   - now: the monotonic time.
    ///   - round: runs the round with the current batch size.
    func run(force: Bool, jitter: Double, now: @Sendable () -> Duration,
             round: @Sendable (BatchSize) async -> UploadRound.Result) async -> Run {
        while busy {
            guard force else {
                again = true
                return .skipped
            }
            await withCheckedContinuation { waiters.append($0) }
        }
        if !force, let backoffUntil, now() < backoffUntil { return .skipped }
        busy = true
        let result = await round(batchSize)
        batchSize = result.batchSize
        if let retryAfter = result.retryAfter {
            failures += 1
            backoffUntil = now() + policy.delay(failures: failures, retryAfter: retryAfter, jitter: jitter)
        } else {
            failures = 0
            backoffUntil = nil
        }
        busy = false
        let runAgain = again && backoffUntil == nil
        again = false
        let woken = waiters
        waiters.removeAll()
        woken.forEach { $0.resume() }
        return .ran(result.summary, retryAt: result.retryAfter == nil ? nil : backoffUntil, again: runAgain)
    }

    /// Forgets the 413 batch size, when the namespace's configuration changes.
    func resetBatchSize() {
        batchSize = BatchSize()
    }
}
