import Logging
import Metrics
import HermesWire

/// The namespaces whose uploads are paused (``UploadBlock``), as `diagnostics()` shows them.
/// Logs each pause once and each lift, and counts pauses in the swift-metrics counter
/// `hermes.uploads.paused` (dimensions `namespace`, `reason`).
final class UploadBlocks: Sendable {
    private let blocks = Locked<[String: UploadBlock]>([:])
    private let logger: Logger
    private let counters: MetricCounters

    /// - Parameter metricsFactory: where the counter is made; `nil` for `MetricsSystem`'s.
    init(logger: Logger, metricsFactory: (any MetricsFactory)? = nil) {
        self.logger = logger
        counters = MetricCounters(factory: metricsFactory)
    }

    /// The paused namespaces now.
    var snapshot: [String: UploadBlock] { blocks.withLock { $0 } }

    /// Applies what a round did to `namespace`'s pause, at `now` (ms since 1970).
    func apply(_ change: NamespaceUploader.PauseChange, namespace: String, now: Int64) {
        switch change {
        case .paused(let refusal, let count, let delay):
            let retryAt = now + Int64(delay / .milliseconds(1))
            blocks.withLock { blocks in
                blocks[namespace] = UploadBlock(
                    reason: refusal.reason, status: refusal.status, code: refusal.code, message: refusal.message,
                    pauses: count, since: blocks[namespace]?.since ?? now, retryAt: retryAt
                )
            }
            logger.warning(
                "hermes: the collector refused uploads; paused them, every record is kept",
                metadata: [
                    "namespace": "\(namespace)", "reason": "\(refusal.reason)", "status": "\(refusal.status)",
                    "code": "\(refusal.code ?? "-")", "message": "\(refusal.message)", "pauses": "\(count)",
                    "retry_in_s": "\(Int64(delay / .seconds(1)))",
                ])
            counters.counter("hermes.uploads.paused", [("namespace", namespace), ("reason", refusal.reason.name)]).increment()
        case .lifted:
            lift([namespace], why: "the collector accepts uploads again")
        }
    }

    /// Lifts the pause of each of `namespaces` that is paused.
    func lift(_ namespaces: [String], why: String) {
        let lifted = blocks.withLock { blocks in namespaces.filter { blocks.removeValue(forKey: $0) != nil } }
        for namespace in lifted {
            logger.notice("hermes: uploads resumed", metadata: ["namespace": "\(namespace)", "why": "\(why)"])
        }
    }
}
