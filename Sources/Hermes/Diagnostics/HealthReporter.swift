import HermesWire

/// Sends the client's `sdkHealth` records: one when ``start(_:)`` is called, then one every
/// interval on the client's clock, until ``shutdown()``. One report at a time: each is drafted
/// from the ledger, sent, and marked reported only if `send` accepted it (``HealthTally``).
final class HealthReporter: Sendable {
    private let tally = Locked(HealthTally(since: .zero))
    private let clock: MonotonicClock
    private let interval: Duration
    private let background = TaskSet()
    private let eventContinuation: AsyncStream<SendOutcome?>.Continuation

    /// The outcome of each report sent (`nil`: the `monitorList` leaves `sdkHealth` out), for
    /// tests to await (one consumer).
    let events: AsyncStream<SendOutcome?>

    /// - Returns: `nil` when `interval` is `nil` or not positive: health records are off.
    init?(interval: Duration?, clock: MonotonicClock) {
        guard let interval, interval > .zero else { return nil }
        self.interval = interval
        self.clock = clock
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1_000))
    }

    /// Runs `report` now, then every interval from now, until ``shutdown()``. Returns at once.
    func start(_ report: @escaping @Sendable () async -> Void) {
        let origin = clock.now()
        background.spawn { [clock, interval] in
            var deadline = origin
            while !Task.isCancelled {
                await report()
                deadline += interval
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
            }
        }
    }

    /// Drafts a report of what `ledger` lost since the last stored one and sends its meta with
    /// `send`; the losses count as reported only when the record is accepted.
    /// - Parameters:
    ///   - queueDepth: the rows in the store, or `nil` when unknown.
    ///   - onlyIfLost: send nothing when nothing was lost since the last stored report.
    ///   - send: sends the record; `nil` when the configuration does not monitor `sdkHealth`.
    func report(
        from ledger: LossLedger, queueDepth: Int?, onlyIfLost: Bool = false,
        send: ([String: JSONValue]) -> SendOutcome?
    ) {
        // Under the lock from draft to mark, so two reports cannot carry the same losses.
        tally.withLock { tally in
            let report = tally.draft(losses: ledger.snapshot, queueDepth: queueDepth, now: clock.now())
            guard !onlyIfLost || report.lostTotal > 0 else { return }
            let outcome = send(report.meta)
            if outcome?.isAccepted == true { tally.stored(report) }
            eventContinuation.yield(outcome)
        }
    }

    /// Stops the timer, waits for a report in progress to end, runs `last` (the last report)
    /// and ends ``events``.
    func shutdown(last: () async -> Void) async {
        await background.cancelAll()
        await last()
        eventContinuation.finish()
    }
}
