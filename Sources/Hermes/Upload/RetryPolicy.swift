import Foundation

/// How long a namespace waits before trying again after a failed upload: exponential backoff
/// with jitter, or exactly what the server's `Retry-After` asks (specification §6.4).
struct RetryPolicy: Sendable {
    var base: Duration = .seconds(1)
    var cap: Duration = .seconds(300)

    /// After 5xx, 408, 429 and network errors: 1 s doubling to 5 minutes.
    static let failure = RetryPolicy()
    /// After a refusal that pauses the namespace (``UploadBlock``): 1 minute doubling to 1 hour.
    static let pause = RetryPolicy(base: .seconds(60), cap: .seconds(3_600))

    /// The wait after the `failures`-th consecutive failure (1-based).
    /// - Parameters:
    ///   - retryAfter: the server's `Retry-After`, which wins when present.
    ///   - jitter: a uniform draw in `0..<1`; the wait is 50 % to 100 % of the backoff.
    func delay(failures: Int, retryAfter: Duration?, jitter: Double) -> Duration {
        if let retryAfter { return min(retryAfter, cap) }
        let exponent = min(max(failures - 1, 0), 30)
        let backoff = min(base * (1 << exponent), cap)
        return backoff * (0.5 + 0.5 * jitter)
    }

    /// Parses `Retry-After` given in seconds (the HTTP-date form falls back to backoff).
    static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
