/// What the stored `sdkHealth` records have reported: the loss totals they carried and when the
/// last one was drafted. A pure state: a report is drafted from the ledger's snapshot and the
/// clock, and counts as reported only when ``stored(_:)`` says its record was accepted, so a
/// loss is reported once and a record that could not be stored leaves its losses to the next.
struct HealthTally: Sendable {
    private var reported: [LossReason: Int] = [:]
    private var since: Duration

    /// - Parameter since: when reporting began, on the client's clock: the first period's start.
    init(since: Duration) {
        self.since = since
    }

    /// The report of the losses in `losses` (per namespace and reason, as the ledger counts
    /// them since the process began) that no stored report carried yet.
    func draft(losses: [String: [LossReason: Int]], queueDepth: Int?, now: Duration) -> HealthReport {
        var totals: [LossReason: Int] = [:]
        for reasons in losses.values {
            for (reason, count) in reasons { totals[reason, default: 0] += count }
        }
        var lost: [LossReason: Int] = [:]
        for (reason, total) in totals where total > reported[reason, default: 0] {
            lost[reason] = total - reported[reason, default: 0]
        }
        return HealthReport(totals: totals, lost: lost, queueDepth: queueDepth, drafted: now, period: now - since)
    }

    /// `report`'s record was accepted: its losses are reported, and the next period starts when it was drafted.
    mutating func stored(_ report: HealthReport) {
        reported.merge(report.totals, uniquingKeysWith: max)
        since = report.drafted
    }
}
