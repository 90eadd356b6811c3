import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HermesWire

/// The task delegate of an ``InstrumentedSession`` request: keeps the task's metrics, if the
/// platform delivers them, as a ``NetworkSample/Measurement``.
final class TaskMetricsRecorder: NSObject, URLSessionTaskDelegate, Sendable {
    private let collected = Locked<NetworkSample.Measurement?>(nil)

    /// The measurement from the task's metrics; `nil` until (or unless) they arrive.
    var measurement: NetworkSample.Measurement? {
        collected.withLock { $0 }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        let seconds = metrics.taskInterval.duration
        guard !metrics.transactionMetrics.isEmpty, (0..<1e9).contains(seconds) else { return }
        let transactions = metrics.transactionMetrics
        let measurement = NetworkSample.Measurement(
            duration: .milliseconds(Int64(seconds * 1_000)),
            requestBytes: transactions.reduce(0) { $0 + $1.countOfRequestBodyBytesSent },
            responseBytes: transactions.reduce(0) { $0 + $1.countOfResponseBodyBytesReceived },
            source: "metrics"
        )
        collected.withLock { $0 = measurement }
    }
}
