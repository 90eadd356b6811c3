/// One row of the performance rollup, by what it counts: a time slot of `width` minutes
/// starting at minute `start` (of 1970), a measure, a key and a histogram bucket.
///
/// Two widths are kept: one-minute cells without keys for the page's charts over time, and
/// one-hour cells by key for its breakdowns (launch by app version, requests by route).
public struct PerformanceCell: Sendable, Hashable, Comparable {
    /// The width of the series cells, in minutes.
    public static let seriesWidth: Int64 = 1
    /// The width of the breakdown cells, in minutes.
    public static let breakdownWidth: Int64 = 60

    /// The slot's width in minutes.
    public var width: Int64
    /// The slot's first minute: the time in milliseconds divided by 60,000.
    public var start: Int64
    /// What is measured.
    public var measure: PerformanceSample.Measure
    /// The app version, the route, or empty.
    public var key: String
    /// The duration's bucket in `LatencyHistogram`, or `LatencyHistogram.noValue`.
    public var bucket: Int64

    /// Creates a cell.
    public init(width: Int64, start: Int64, measure: PerformanceSample.Measure, key: String, bucket: Int64) {
        self.width = width
        self.start = start
        self.measure = measure
        self.key = key
        self.bucket = bucket
    }

    /// Key order: concurrent batches update shared cells in one order.
    public static func < (left: Self, right: Self) -> Bool {
        (left.width, left.start, left.measure.rawValue, left.key, left.bucket)
            < (right.width, right.start, right.measure.rawValue, right.key, right.bucket)
    }
}

/// What the records of one cell add up to.
public struct PerformanceTotals: Sendable, Hashable {
    /// How many records.
    public var samples: Int64 = 0
    /// How many of them were failed requests.
    public var failures: Int64 = 0
    /// The sum of their durations in milliseconds.
    public var milliseconds: Double = 0

    /// No records.
    public init() {}

    /// Totals as summed by a store.
    public init(samples: Int64, failures: Int64, milliseconds: Double) {
        self.samples = samples
        self.failures = failures
        self.milliseconds = milliseconds
    }

    /// Adds one sample.
    mutating func add(_ sample: PerformanceSample) {
        samples += 1
        if sample.failed { failures += 1 }
        milliseconds += sample.milliseconds ?? 0
    }

    /// Adds another cell's totals.
    mutating func add(_ other: Self) {
        samples += other.samples
        failures += other.failures
        milliseconds += other.milliseconds
    }
}

/// A batch's new records as performance rollup cells, added to the rollup in key order in the
/// batch's own transaction.
struct PerformanceTally {
    private(set) var cells: [PerformanceCell: PerformanceTotals] = [:]

    /// Counts one new record (records without a sample are ignored).
    mutating func count(_ record: IngestRecord) {
        guard let sample = record.facets.sample else { return }
        for cell in sample.cells(createTime: record.createTime) { cells[cell, default: PerformanceTotals()].add(sample) }
    }

    /// The cells in key order.
    var sorted: [(cell: PerformanceCell, totals: PerformanceTotals)] {
        cells.keys.sorted().map { ($0, cells[$0]!) }
    }
}
