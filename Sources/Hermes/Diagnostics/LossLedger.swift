import Metrics
import HermesWire

/// Counts records that left the store undelivered, per namespace and reason, and exports them
/// as the swift-metrics counter `hermes.records.lost` (dimensions `namespace`, `reason`); the
/// records the collector rejected also per code, as `hermes.records.rejected` (`namespace`, `code`).
final class LossLedger: Sendable {
    private let counts = Locked<[String: [LossReason: Int]]>([:])
    private let rejectionCounts = Locked<[String: [String: Int]]>([:])
    private let counters: MetricCounters

    /// - Parameter metricsFactory: where the counters are made; `nil` for the factory that
    ///   `MetricsSystem` holds when each counter is first needed.
    init(metricsFactory: (any MetricsFactory)? = nil) {
        counters = MetricCounters(factory: metricsFactory)
    }

    func record(_ count: Int, namespace: String, reason: LossReason) {
        guard count > 0 else { return }
        counts.withLock { $0[namespace, default: [:]][reason, default: 0] += count }
        counters.counter("hermes.records.lost", [("namespace", namespace), ("reason", reason.name)]).increment(by: count)
    }

    /// Records the collector rejected, per code: counted as ``LossReason/rejected`` too.
    func recordRejections(_ codes: [String: Int], namespace: String) {
        record(codes.values.reduce(0, +), namespace: namespace, reason: .rejected)
        rejectionCounts.withLock { counts in
            for (code, count) in codes { counts[namespace, default: [:]][code, default: 0] += count }
        }
        for (code, count) in codes {
            counters.counter("hermes.records.rejected", [("namespace", namespace), ("code", code)]).increment(by: count)
        }
    }

    /// Losses so far, per namespace and reason.
    var snapshot: [String: [LossReason: Int]] { counts.withLock { $0 } }

    /// Records the collector rejected so far, per namespace and code.
    var rejections: [String: [String: Int]] { rejectionCounts.withLock { $0 } }
}
