import Metrics
import HermesWire

/// swift-metrics counters, each made once per label and dimensions: from the injected factory,
/// or from the one `MetricsSystem` holds when the counter is first needed.
final class MetricCounters: Sendable {
    private let counters = Locked<[String: Counter]>([:])
    private let factory: (any MetricsFactory)?

    /// - Parameter factory: where the counters are made; `nil` for `MetricsSystem`'s.
    init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    /// The counter `label` with `dimensions`, made on first use.
    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        let key = ([label] + dimensions.map(\.1)).joined(separator: "\u{0}")
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter =
                factory.map { Counter(label: label, dimensions: dimensions, factory: $0) }
                ?? Counter(label: label, dimensions: dimensions)
            counters[key] = counter
            return counter
        }
    }
}
