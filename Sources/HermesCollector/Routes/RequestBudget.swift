import HermesWire

/// The bytes all requests in flight may hold at once, the collector's bound on memory under
/// many concurrent (or hostile) uploads. A request reserves what it may hold (its body and what
/// the body may decompress to) before it reads its body; when the budget cannot cover it, the
/// request is refused at once with ``CollectorError/Code/busy`` (503, `Retry-After: 1`), which
/// the SDK retries after a backoff.
final class RequestBudget: Sendable {
    private let available: Locked<Int>

    /// Creates a budget of `capacity` bytes.
    init(capacity: Int) {
        available = Locked(capacity)
    }

    /// Runs `body` with `bytes` reserved, released however it ends.
    /// - Throws: ``CollectorError/Code/busy`` when the budget cannot cover `bytes` now, or what
    ///   `body` throws.
    func withReservation<T>(_ bytes: Int, _ body: () async throws -> T) async throws -> T {
        let reserved = available.withLock { available in
            guard bytes <= available else { return false }
            available -= bytes
            return true
        }
        guard reserved else {
            throw CollectorError(.busy, "the collector holds as many request bytes as it allows; retry shortly")
        }
        defer { available.withLock { $0 += bytes } }
        return try await body()
    }
}
