/// The performance rollup's cells of one width summed by time slot, as the performance page
/// reads them (``ConsoleStorage/performanceRollup(width:from:until:slotMinutes:)``).
public struct PerformanceRollupRow: Sendable, Hashable {
    /// The slot: `(start - from) / slotMinutes`.
    public var slot: Int64
    /// What is measured.
    public var measure: PerformanceSample.Measure
    /// The app version, the route, or empty.
    public var key: String
    /// The histogram bucket, or `LatencyHistogram.noValue`.
    public var bucket: Int64
    /// The records' totals.
    public var totals: PerformanceTotals

    /// Creates a row.
    public init(slot: Int64, measure: PerformanceSample.Measure, key: String, bucket: Int64, totals: PerformanceTotals) {
        self.slot = slot
        self.measure = measure
        self.key = key
        self.bucket = bucket
        self.totals = totals
    }
}
