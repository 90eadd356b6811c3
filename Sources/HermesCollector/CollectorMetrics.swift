public import HermesWire
import Synchronization

/// The collector's counters, served at `GET /metrics` in the Prometheus text format.
///
/// Safe to update from any request; reading takes a consistent ``snapshot``. Pass your own
/// instance to `buildApplication` to read the counters in process (the demo does).
///
/// ```swift
/// let metrics = CollectorMetrics()
/// // … run the collector …
/// print(metrics.snapshot.recordsStored)
/// ```
public final class CollectorMetrics: Sendable {
    /// The counters' values at one moment.
    public struct Snapshot: Sendable, Hashable {
        /// Records stored for the first time.
        public var recordsStored = 0
        /// Records acknowledged but not stored because their `(namespace, REPORT_ID)` was already stored.
        public var duplicatesDropped = 0
        /// Refused requests by error code (`unauthorized`, `truncatedPacket`, …).
        public var rejects: [String: Int] = [:]
        /// Records of readable uploads refused on their own, by code (`invalidField`, `refusedByRule`, …).
        public var recordsRejected: [String: Int] = [:]
        /// Upload body bytes received, accepted or not.
        public var bytesIn = 0
        /// Accepted upload batches by packet kind.
        public var batches: [PacketKind: Int] = [:]
        /// Day partitions dropped by retention.
        public var retentionDaysDropped = 0
        /// Records removed by retention.
        public var retentionRecordsRemoved = 0
        /// Retention passes that failed (each is tried again at the next one).
        public var retentionFailures = 0

        /// An all-zero snapshot.
        public init() {}
    }

    private let state = Mutex(Snapshot())

    /// Creates counters at zero.
    public init() {}

    /// The counters' current values.
    public var snapshot: Snapshot { state.withLock { $0 } }

    func countBytesIn(_ count: Int) {
        state.withLock { $0.bytesIn += count }
    }

    func countBatch(_ kind: PacketKind, _ outcome: StoreOutcome, rejected: [UploadAnswer.Rejection]) {
        state.withLock {
            $0.batches[kind, default: 0] += 1
            $0.recordsStored += outcome.stored
            $0.duplicatesDropped += outcome.duplicates
            for rejection in rejected { $0.recordsRejected[rejection.code, default: 0] += 1 }
        }
    }

    func countRetention(_ outcome: RetentionOutcome?) {
        state.withLock {
            guard let outcome else { return $0.retentionFailures += 1 }
            $0.retentionDaysDropped += outcome.daysDropped
            $0.retentionRecordsRemoved += outcome.recordsRemoved
        }
    }

    func countReject(_ code: CollectorError.Code) {
        state.withLock { $0.rejects[code.description, default: 0] += 1 }
    }

    /// The counters in the Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        let values = snapshot
        var text = ""
        func counter(_ name: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            for sample in samples { text += "\(name)\(sample.labels) \(sample.value)\n" }
        }
        counter("hermes_collector_records_stored_total", "Records stored for the first time.", [("", values.recordsStored)])
        counter("hermes_collector_duplicates_dropped_total", "Records already stored, acknowledged and dropped.", [("", values.duplicatesDropped)])
        counter(
            "hermes_collector_rejects_total", "Requests refused, by error code.",
            values.rejects.sorted { $0.key < $1.key }.map { ("{reason=\"\($0.key)\"}", $0.value) }
        )
        counter(
            "hermes_collector_records_rejected_total", "Records of readable uploads refused on their own, by code.",
            values.recordsRejected.sorted { $0.key < $1.key }.map { ("{reason=\"\($0.key)\"}", $0.value) }
        )
        counter("hermes_collector_bytes_in_total", "Upload body bytes received.", [("", values.bytesIn)])
        counter(
            "hermes_collector_batches_total", "Upload batches accepted, by packet kind.",
            PacketKind.allCases.map { ("{kind=\"\($0.label)\"}", values.batches[$0, default: 0]) }
        )
        counter("hermes_collector_retention_days_dropped_total", "Day partitions dropped by retention.", [("", values.retentionDaysDropped)])
        counter("hermes_collector_retention_records_removed_total", "Records removed by retention.", [("", values.retentionRecordsRemoved)])
        counter("hermes_collector_retention_failures_total", "Retention passes that failed.", [("", values.retentionFailures)])
        return text
    }
}

extension PacketKind {
    /// The kind's name in metrics and logs.
    var label: String { self == .meta ? "meta" : "payload" }
}
