import Metrics
import Synchronization

/// Counts records that left the store without a 2xx, per namespace and reason, and exports
/// them as the swift-metrics counter `hermes.records.lost` (dimensions `namespace`, `reason`).
final class LossLedger: Sendable {
    private let counts = Mutex<[String: [LossReason: Int]]>([:])
    private let counters = Mutex<[String: Counter]>([:])
    private let metricsFactory: (any MetricsFactory)?

    /// - Parameter metricsFactory: where the counters are made; `nil` for the factory that
    ///   `MetricsSystem` holds when each counter is first needed.
    init(metricsFactory: (any MetricsFactory)? = nil) {
        self.metricsFactory = metricsFactory
    }

    func record(_ count: Int, namespace: String, reason: LossReason) {
        guard count > 0 else { return }
        counts.withLock { $0[namespace, default: [:]][reason, default: 0] += count }
        counter(namespace: namespace, reason: reason).increment(by: count)
    }

    /// Losses so far, per namespace and reason.
    var snapshot: [String: [LossReason: Int]] { counts.withLock { $0 } }

    private func counter(namespace: String, reason: LossReason) -> Counter {
        let key = "\(namespace)\u{0}\(reason.name)"
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let dimensions = [("namespace", namespace), ("reason", reason.name)]
            let counter = metricsFactory.map { Counter(label: "hermes.records.lost", dimensions: dimensions, factory: $0) }
                ?? Counter(label: "hermes.records.lost", dimensions: dimensions)
            counters[key] = counter
            return counter
        }
    }
}
