import Foundation

/// The buckets the performance rollup counts durations in: logarithmic, each 10 % wider than
/// the one before, so a percentile read from them is within 5 % of the exact one whatever the
/// scale (1 ms or 10 minutes), and a day of one route takes a few dozen rows.
///
/// Bucket 0 holds durations under 1 ms; bucket `b ≥ 1` holds `[1.1^(b-1), 1.1^b)` ms.
enum LatencyHistogram {
    /// The bucket of a record without a duration (counted, but in no percentile).
    static let noValue: Int64 = -1
    /// How much wider each bucket is than the one before.
    static let growth = 1.1
    private static let logGrowth = log(growth)
    /// The last bucket: durations past about 115 days share it.
    static let lastBucket: Int64 = 400

    /// The bucket of a duration in milliseconds (negative durations count as 0).
    static func bucket(of milliseconds: Double) -> Int64 {
        guard milliseconds >= 1 else { return 0 }
        guard milliseconds.isFinite else { return lastBucket }
        return min(Int64((log(milliseconds) / logGrowth).rounded(.down)) + 1, lastBucket)
    }

    /// The value a bucket stands for: the geometric middle of its range (0.5 for bucket 0).
    static func value(of bucket: Int64) -> Double {
        guard bucket > 0 else { return 0.5 }
        return pow(growth, Double(bucket) - 0.5)
    }

    /// The nearest-rank percentile (`fraction` 0…1) of durations counted by bucket, as the
    /// bucket's middle value; `nil` when there are none. Buckets below 0 are ignored.
    static func percentile(_ fraction: Double, of counts: [Int64: Int64]) -> Double? {
        let buckets = counts.filter { $0.key >= 0 && $0.value > 0 }.sorted { $0.key < $1.key }
        let total = buckets.reduce(0) { $0 + $1.value }
        guard total > 0 else { return nil }
        let rank = min(max(Int64((fraction * Double(total)).rounded(.up)), 1), total)
        var seen: Int64 = 0
        for (bucket, count) in buckets {
            seen += count
            if seen >= rank { return value(of: bucket) }
        }
        return nil
    }
}
