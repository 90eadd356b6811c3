import Atomics
package import Hermes
package import HermesWire

/// A ``Transport`` that times each request it passes on: the round trip an upload waits for,
/// collector commit included.
package final class TimedTransport: Transport, Sendable {
    private let base: any Transport
    private let durations = Locked<[Duration]>([])
    private let bytes = ManagedAtomic<Int>(0)
    private let firstPost = Locked<ContinuousClock.Instant?>(nil)

    /// Times the requests of `base`.
    package init(_ base: any Transport) {
        self.base = base
    }

    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        bytes.wrappingIncrement(by: request.body.count, ordering: .relaxed)
        let clock = ContinuousClock()
        let start = clock.now
        if request.method == "POST" { firstPost.withLock { $0 = $0 ?? start } }
        defer {
            let elapsed = start.duration(to: clock.now)
            durations.withLock { $0.append(elapsed) }
        }
        return try await base.send(request)
    }

    /// The bytes of every request body passed on so far.
    package var bodyBytes: Int { bytes.load(ordering: .relaxed) }

    /// When the first POST (the first upload) was passed on, if one was.
    package var firstPostStart: ContinuousClock.Instant? { firstPost.withLock { $0 } }

    /// The `fraction` percentile of the round trips so far, in milliseconds (0 when none).
    package func percentileMilliseconds(_ fraction: Double) -> Double {
        let sorted = durations.withLock { $0 }.sorted()
        guard !sorted.isEmpty else { return 0 }
        return percentile(fraction, ofSorted: sorted).seconds * 1_000
    }
}
