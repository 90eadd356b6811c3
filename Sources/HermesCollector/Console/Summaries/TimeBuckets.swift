/// Splits a time range into equal buckets for a chart.
struct TimeBuckets {
    /// The first bucket's start, in milliseconds since 1970.
    let start: Int64
    /// Each bucket's width, in milliseconds.
    let width: Int64
    /// How many buckets.
    let count: Int

    /// `count` buckets that end at `end`.
    init(ending end: Int64, width: Int64, count: Int) {
        self.width = max(width, 1)
        self.count = max(count, 1)
        start = end - self.width * Int64(self.count)
    }

    /// The bucket of `time`, or `nil` outside the range.
    func index(of time: Int64) -> Int? {
        guard time >= start else { return nil }
        let index = Int((time - start) / width)
        return index < count ? index : nil
    }

    /// Each bucket's start time.
    var starts: [Int64] { (0..<count).map { start + Int64($0) * width } }
}
