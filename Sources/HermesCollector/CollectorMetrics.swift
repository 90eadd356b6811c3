public import HermesWire
import Foundation
import Prometheus

/// The collector's counters, request histograms and database size, served at `GET /metrics` in
/// the Prometheus text format (swift-prometheus, a registry of this instance's own: nothing global).
///
/// Safe to update from any request; reading takes a consistent ``snapshot`` of the counters.
/// Pass your own instance to `buildApplication` to read them in process (the demo does).
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
        /// Records removed by retention: exact on SQLite; on PostgreSQL a dropped day adds the
        /// planner's estimate of its rows (see ``RetentionOutcome/recordsRemoved``).
        public var retentionRecordsRemoved = 0
        /// Retention passes that failed (each is tried again at the next one).
        public var retentionFailures = 0
        /// Record sync requests answered.
        public var syncRequests = 0
        /// Change sets applied by record sync.
        public var syncChangeSetsApplied = 0
        /// Change sets refused by record sync, by reason (`stale`, `referenced`, …).
        public var syncConflicts: [String: Int] = [:]
        /// Records sent to devices in pages of missed change sets.
        public var syncRecordsSent = 0
        /// Connections closed at once because the collector held as many as it allows (in all
        /// or from their address).
        public var connectionsRefused = 0
        /// Connections closed because a request head or a body read did not come in time.
        public var connectionsTimedOut = 0

        /// An all-zero snapshot.
        public init() {}
    }

    private let state = Locked(Snapshot())
    private let registry = PrometheusCollectorRegistry()
    /// The series every upload adds to, made once: the registry's lookup builds a descriptor
    /// and takes its lock, too much for each request.
    private let uploadSeries: UploadSeries
    /// The request duration histograms made so far, by route, method and status.
    private let requestHistograms = Locked<[RequestSeries: DurationHistogram]>([:])
    /// The CPU seconds last added to `process_cpu_seconds_total` (a counter: only the growth is added).
    private let cpuSecondsCounted = Locked(0.0)
    /// Upper bounds of the request duration histogram's buckets.
    static let durationBuckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10_000].map { .microseconds(Int64($0 * 1000)) }

    /// Creates counters at zero.
    public init() {
        let registry = registry
        uploadSeries = UploadSeries(
            recordsStored: Self.counter(Self.recordsStored, [], in: registry),
            duplicates: Self.counter(Self.duplicates, [], in: registry),
            bytesIn: Self.counter(Self.bytesIn, [], in: registry),
            batches: Dictionary(
                uniqueKeysWithValues: PacketKind.allCases.map { ($0, Self.counter(Self.batches, [("kind", $0.label)], in: registry)) })
        )
        // The fixed series exist from the start, at 0.
        for name in Self.counters.keys
        where ![Self.rejects, Self.recordsRejected, Self.batches, Self.syncConflicts, Self.rateLimited].contains(name) {
            _ = counter(name)
        }
        // Which build answers: 1, labelled with the version (the Prometheus convention).
        registry.makeGauge(
            name: "hermes_collector_build_info", labels: [("version", HermesVersion.current)], help: "The collector's version, as a label; always 1."
        ).set(1.0)
        registry.makeGauge(descriptor: Self.descriptor("process_start_time_seconds", "When the process started, in seconds since 1970."))
            .set(Date().timeIntervalSince1970)
    }

    /// The counters' current values.
    public var snapshot: Snapshot { state.withLock { $0 } }

    func countBytesIn(_ count: Int) {
        state.withLock { $0.bytesIn += count }
        uploadSeries.bytesIn.increment(by: Int64(count))
    }

    func countBatch(_ kind: PacketKind, _ outcome: StoreOutcome, rejected: [UploadAnswer.Rejection]) {
        state.withLock {
            $0.batches[kind, default: 0] += 1
            $0.recordsStored += outcome.stored
            $0.duplicatesDropped += outcome.duplicates
            for rejection in rejected { $0.recordsRejected[rejection.code, default: 0] += 1 }
        }
        uploadSeries.batches[kind]?.increment()
        uploadSeries.recordsStored.increment(by: Int64(outcome.stored))
        uploadSeries.duplicates.increment(by: Int64(outcome.duplicates))
        for rejection in rejected { counter(Self.recordsRejected, ("reason", rejection.code)).increment() }
    }

    /// One answered request: its route (the pattern, not the path: names stay few), method,
    /// status and time taken.
    func observeRequest(route: String, method: String, status: Int, duration: Duration) {
        let series = RequestSeries(route: route, method: method, status: status)
        let histogram = requestHistograms.withLock { made in
            if let histogram = made[series] { return histogram }
            let histogram = registry.makeDurationHistogram(
                descriptor: Self.descriptor("hermes_collector_request_duration_seconds", "Time to answer a request, by route, method and status."),
                labels: [("route", route), ("method", method), ("status", String(status))],
                buckets: Self.durationBuckets
            )
            made[series] = histogram
            return histogram
        }
        histogram.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// One answered record sync request: the outcomes of its change sets, the records of its page
    /// of missed change sets, and the time the sync server took.
    func countSync(_ answer: SyncAnswer, duration: Duration) {
        let outcomes = answer.outcomes
        let applied = outcomes.filter { $0.conflict != true }.count
        let reasons = outcomes.compactMap { $0.conflict == true ? $0.reason ?? "unknown" : nil }
        let sent = answer.missed.reduce(0) { $0 + $1.entries.count }
        state.withLock {
            $0.syncRequests += 1
            $0.syncChangeSetsApplied += applied
            for reason in reasons { $0.syncConflicts[reason, default: 0] += 1 }
            $0.syncRecordsSent += sent
        }
        counter(Self.syncRequests).increment()
        counter(Self.syncApplied).increment(by: Int64(applied))
        for reason in reasons { counter(Self.syncConflicts, ("reason", reason)).increment() }
        counter(Self.syncRecordsSent).increment(by: Int64(sent))
        registry.makeDurationHistogram(
            descriptor: Self.descriptor("hermes_collector_sync_duration_seconds", "Time the sync server took to answer a sync request."),
            buckets: Self.durationBuckets
        ).recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The store's size in bytes, as last read (at a scrape of `/metrics`).
    func recordDatabaseBytes(_ bytes: Int) {
        registry.makeGauge(
            descriptor: Self.descriptor("hermes_collector_database_bytes", "Bytes the store takes (database or file size).")
        ).set(Double(bytes))
    }

    /// The process's CPU time, memory and file descriptors, as last read (at a scrape of
    /// `/metrics`), by the Prometheus client conventions' names.
    func recordProcess(_ statistics: ProcessStatistics) {
        if let cpu = statistics.cpuSeconds {
            let growth = cpuSecondsCounted.withLock { counted in
                defer { counted = max(counted, cpu) }
                return max(cpu - counted, 0)
            }
            registry.makeCounter(descriptor: Self.descriptor("process_cpu_seconds_total", "User and system CPU time spent, in seconds."))
                .increment(by: growth)
        }
        let gauges: [(String, String, Int?)] = [
            ("process_resident_memory_bytes", "Resident memory size in bytes.", statistics.residentBytes),
            ("process_virtual_memory_bytes", "Virtual memory size in bytes.", statistics.virtualBytes),
            ("process_open_fds", "Open file descriptors.", statistics.openFileDescriptors),
            ("process_max_fds", "The most file descriptors the process may open.", statistics.maxFileDescriptors),
        ]
        for (name, help, value) in gauges {
            guard let value else { continue }
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, helpText: help)).set(Double(value))
        }
    }

    func countRetention(_ outcome: RetentionOutcome?) {
        state.withLock {
            guard let outcome else { return $0.retentionFailures += 1 }
            $0.retentionDaysDropped += outcome.daysDropped
            $0.retentionRecordsRemoved += outcome.recordsRemoved
        }
        guard let outcome else { return counter(Self.retentionFailures).increment() }
        counter(Self.retentionDays).increment(by: Int64(outcome.daysDropped))
        counter(Self.retentionRecords).increment(by: Int64(outcome.recordsRemoved))
    }

    func countConnectionRefused() {
        state.withLock { $0.connectionsRefused += 1 }
        counter(Self.connectionsRefused).increment()
    }

    func countConnectionTimedOut() {
        state.withLock { $0.connectionsTimedOut += 1 }
        counter(Self.connectionsTimedOut).increment()
    }

    /// One request refused by an app key's rate limit, by the key's id (never the key).
    func countRateLimited(keyID: String) {
        counter(Self.rateLimited, ("key_id", keyID)).increment()
    }

    func countReject(_ code: CollectorError.Code) {
        state.withLock { $0.rejects[code.description, default: 0] += 1 }
        counter(Self.rejects, ("reason", code.description)).increment()
    }

    /// Every metric in the Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        registry.emitToString()
    }

    private static let recordsStored = "hermes_collector_records_stored_total"
    private static let duplicates = "hermes_collector_duplicates_dropped_total"
    private static let rejects = "hermes_collector_rejects_total"
    private static let recordsRejected = "hermes_collector_records_rejected_total"
    private static let bytesIn = "hermes_collector_bytes_in_total"
    private static let batches = "hermes_collector_batches_total"
    private static let retentionDays = "hermes_collector_retention_days_dropped_total"
    private static let retentionRecords = "hermes_collector_retention_records_removed_total"
    private static let retentionFailures = "hermes_collector_retention_failures_total"
    private static let syncRequests = "hermes_collector_sync_requests_total"
    private static let syncApplied = "hermes_collector_sync_change_sets_applied_total"
    private static let syncConflicts = "hermes_collector_sync_conflicts_total"
    private static let syncRecordsSent = "hermes_collector_sync_records_sent_total"
    private static let connectionsRefused = "hermes_collector_connections_refused_total"
    private static let connectionsTimedOut = "hermes_collector_connections_timed_out_total"
    private static let rateLimited = "hermes_collector_rate_limited_total"

    /// Each counter's help text.
    private static let counters: [String: String] = [
        recordsStored: "Records stored for the first time.",
        duplicates: "Records already stored, acknowledged and dropped.",
        rejects: "Requests refused, by error code.",
        recordsRejected: "Records of readable uploads refused on their own, by code.",
        bytesIn: "Upload body bytes received.",
        batches: "Upload batches accepted, by packet kind.",
        retentionDays: "Day partitions dropped by retention.",
        retentionRecords: "Records removed by retention (exact on SQLite; on PostgreSQL a dropped day counts the planner's estimate of its rows).",
        retentionFailures: "Retention passes that failed.",
        syncRequests: "Record sync requests answered.",
        syncApplied: "Change sets applied by record sync.",
        syncConflicts: "Change sets refused by record sync, by reason.",
        syncRecordsSent: "Records sent in pages of missed change sets.",
        connectionsRefused: "Connections closed at once: the collector held as many as it allows, in all or from their address.",
        connectionsTimedOut: "Connections closed because a request head or a body read did not come in time.",
        rateLimited: "Requests refused by an app key's rate limit, by key id (the first 8 hex digits of the key's SHA-256).",
    ]

    /// The registry's counter for `name` and `labels` (made on first use, the same one after).
    private func counter(_ name: String, _ labels: (String, String)...) -> Counter {
        Self.counter(name, labels, in: registry)
    }

    private static func counter(_ name: String, _ labels: [(String, String)], in registry: PrometheusCollectorRegistry) -> Counter {
        registry.makeCounter(descriptor: descriptor(name, counters[name] ?? ""), labels: labels)
    }

    /// The counters each accepted upload adds to.
    private struct UploadSeries: Sendable {
        var recordsStored: Counter
        var duplicates: Counter
        var bytesIn: Counter
        var batches: [PacketKind: Counter]
    }

    /// One request duration histogram's labels.
    private struct RequestSeries: Hashable, Sendable {
        var route: String
        var method: String
        var status: Int
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// A metric's descriptor from its full name, whose last part is its unit (`_total`, `_bytes`).
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        let unit = name.split(separator: "_").last.map(String.init) ?? ""
        return MetricNameDescriptor(metricName: String(name.dropLast(unit.count + 1)), unitName: unit, helpText: help)
    }
}

extension PacketKind {
    /// The kind's name in metrics and logs.
    var label: String { self == .meta ? "meta" : "payload" }
}
