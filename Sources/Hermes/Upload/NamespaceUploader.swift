/// One namespace's upload state: at most one round at a time, the batch size (after 413s),
/// the backoff after failures, and the pause after refusals (``UploadBlock``).
actor NamespaceUploader {
    /// What a call to ``run(force:jitter:now:round:)`` did.
    enum Run: Sendable {
        /// Not run: another round is running (it will run once more) or the namespace waits.
        case skipped
        /// A round ran; `retryAt` (a ``MonotonicClock`` deadline) is set when it must wait;
        /// `again` when triggers arrived meanwhile; `pause` tells how the namespace's pause changed.
        case ran(UploadSummary, retryAt: Duration?, again: Bool, pause: PauseChange?)
    }

    /// How a round changed the namespace's pause.
    enum PauseChange: Sendable, Equatable {
        /// The collector refused: the `count`-th pause in a row, for `delay`.
        case paused(ResponseAction.Refusal, count: Int, delay: Duration)
        /// The collector answered again after a pause.
        case lifted
    }

    private var busy = false
    private var again = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var batchSize = BatchSize()
    private var failures = 0
    private var pauses = 0
    private var waitUntil: Duration?

    /// Runs a round unless one is running or (for automatic triggers) the namespace waits.
    /// - Parameters:
    ///   - force: an explicit `upload()`: waits for a running round, then runs, backoff or pause.
    ///   - jitter: a uniform draw in `0..<1` for the wait.
    ///   - now: the monotonic time.
    ///   - round: runs the round with the current batch size.
    func run(
        force: Bool, jitter: Double, now: @Sendable () -> Duration,
        round: @Sendable (BatchSize) async -> UploadRound.Result
    ) async -> Run {
        while busy {
            guard force else {
                again = true
                return .skipped
            }
            await withCheckedContinuation { waiters.append($0) }
        }
        if !force, let waitUntil, now() < waitUntil { return .skipped }
        busy = true
        let result = await round(batchSize)
        batchSize = result.batchSize
        let pause = settle(result, jitter: jitter, now: now())
        busy = false
        let runAgain = again && waitUntil == nil
        again = false
        let woken = waiters
        waiters.removeAll()
        woken.forEach { $0.resume() }
        return .ran(result.summary, retryAt: result.wait == nil ? nil : waitUntil, again: runAgain, pause: pause)
    }

    /// Updates the backoff and the pause after a round.
    private func settle(_ result: UploadRound.Result, jitter: Double, now: Duration) -> PauseChange? {
        switch result.wait {
        case .retry(let retryAfter)?:
            failures += 1
            waitUntil = now + RetryPolicy.failure.delay(failures: failures, retryAfter: retryAfter, jitter: jitter)
            return lift()
        case .pause(let refusal)?:
            failures = 0
            pauses += 1
            let delay = RetryPolicy.pause.delay(failures: pauses, retryAfter: nil, jitter: jitter)
            waitUntil = now + delay
            return .paused(refusal, count: pauses, delay: delay)
        case nil where pauses > 0 && result.summary.requests == 0:
            // A forced round that reached no collector (offline, nothing pending): the pause stands.
            return nil
        case nil:
            failures = 0
            waitUntil = nil
            return lift()
        }
    }

    private func lift() -> PauseChange? {
        guard pauses > 0 else { return nil }
        pauses = 0
        return .lifted
    }

    /// Lifts a pause (a configuration refresh brought a new document); a backoff after failures stays.
    /// - Returns: whether the namespace was paused.
    func liftPause() -> Bool {
        guard pauses > 0 else { return false }
        pauses = 0
        waitUntil = nil
        return true
    }

    /// Forgets the 413 batch size, when the namespace's configuration changes.
    func resetBatchSize() {
        batchSize = BatchSize()
    }
}
