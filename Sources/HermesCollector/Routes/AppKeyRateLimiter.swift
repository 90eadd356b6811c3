import HermesWire

/// A token bucket per app key: each key may make `rate` requests a second on average and
/// `burst` at once; past that a request is refused with ``CollectorError/Code/rateLimited``
/// (429) and `Retry-After` the seconds until the bucket holds a request again, which the SDK
/// waits out.
///
/// Kept in the instance's memory: behind several instances each applies the rate on its own.
final class AppKeyRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var time: Int64
    }

    /// Requests a second each key's bucket refills with.
    let rate: Double
    /// The most requests a bucket holds: a full bucket lets this many through at once.
    let burst: Double
    private let buckets = Locked([String: Bucket]())

    /// - Parameters:
    ///   - rate: requests a second per key (above 0).
    ///   - burstSeconds: how many seconds of requests a full bucket holds (at least one request).
    init(rate: Double, burstSeconds: Double = 5) {
        self.rate = max(rate, .leastNonzeroMagnitude)
        burst = max(rate * burstSeconds, 1)
    }

    /// Takes one request from `key`'s bucket at `now` (ms).
    /// - Throws: ``CollectorError/Code/rateLimited`` with ``CollectorError/retryAfterSeconds``
    ///   when the bucket is empty.
    func take(_ key: String, now: Int64) throws(CollectorError) {
        let wait: Double? = buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, time: now)
            let elapsed = Double(max(now - bucket.time, 0)) / 1000
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.time = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        guard let wait else { return }
        var error = CollectorError(.rateLimited, "this app key made more than \(Self.text(rate)) requests a second; wait as Retry-After says")
        error.retryAfterSeconds = max(Int(wait.rounded(.up)), 1)
        throw error
    }

    private static func text(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}
