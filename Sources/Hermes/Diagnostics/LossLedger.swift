import Metrics
import Synchronization

/// Counts records that left the store without a 2xx, per namespace and reason, and exports
/// them as the swift-metrics counter `hermes.records.lost` (dimensions `namespace`, `reason`).
final class LossLedger: Sendable {
    private let counts = Mutex<[String: [LossReason: Int]]>([:])
    private let counters = Mutex<[String: Counter]>([:])

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
            let counter = Counter(label: "hermes.records.lost", dimensions: [("namespace", namespace), ("reason", reason.name)])
            counters[key] = counter
            return counter
        }
    }
}
