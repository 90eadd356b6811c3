import Logging
import Metrics
import HermesWire

/// The 2xx answers that proved nothing (``ResponseAction/unacknowledged``), per namespace, as
/// `diagnostics().unacknowledged` shows them. Logs each one (a round ends on it, so once per
/// round) and counts it in the swift-metrics counter `hermes.uploads.unacknowledged`
/// (dimension `namespace`).
final class UnacknowledgedAnswers: Sendable {
    private let counts = Locked<[String: Int]>([:])
    private let logger: Logger
    private let counters: MetricCounters

    /// - Parameter metricsFactory: where the counter is made; `nil` for `MetricsSystem`'s.
    init(logger: Logger, metricsFactory: (any MetricsFactory)? = nil) {
        self.logger = logger
        counters = MetricCounters(factory: metricsFactory)
    }

    /// The answers counted so far, per namespace.
    var snapshot: [String: Int] { counts.withLock { $0 } }

    /// Counts and logs a 2xx answer to an upload of `namespace` that did not acknowledge its batch.
    func record(namespace: String, status: Int, body: [UInt8]) {
        counts.withLock { $0[namespace, default: 0] += 1 }
        logger.warning(
            "hermes: the server answered 2xx without a Hermes acknowledgement; nothing deleted",
            metadata: [
                "namespace": "\(namespace)", "status": "\(status)",
                "body": "\(String(decoding: body.prefix(100), as: UTF8.self))",
            ])
        counters.counter("hermes.uploads.unacknowledged", [("namespace", namespace)]).increment()
    }
}
