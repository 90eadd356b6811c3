import HermesWire
import Hummingbird

/// The overview and performance pages' figures, for viewers:
/// - `GET /console/api/overview`: new records per minute by namespace over the last 24 hours
///   (from the per-minute rollup), this instance's refusals by code and rejected records by
///   reason since it started, the store's size, and the SDKs' own delivery health over the
///   last 24 hours (from its rollups; losses by whole hours);
/// - `GET /console/api/performance?hours=N` (1…168, default 24): launch time, hangs and
///   network figures over the last `hours` in about 48 slots, from the performance rollup
///   (``PerformanceSummary``); the tables count whole hours (`breakdownSince`).
struct ConsoleInsightRoutes<Storage: CollectorStorage> {
    let gate: ConsoleGate
    let storage: Storage
    let metrics: CollectorMetrics

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/overview") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let now = gate.wallClock()
            let day: Int64 = 86_400_000
            let minutes = try await withStorageErrors("read the record counts") { try await storage.recordMinutes(since: (now - day) / 60_000) }
            var byNamespace: [String: [Int64: Int64]] = [:]
            var reports: Int64 = 0
            for row in minutes {
                byNamespace[row.namespace, default: [:]][row.minute, default: 0] += row.records
                if row.namespace == RecordNamespace.monitoring && row.monitorType == MonitorType.sdkHealth { reports += row.records }
            }
            let health = try await withStorageErrors("read the delivery health") {
                DeliveryHealthSummary(
                    reports: reports, losses: try await storage.deliveryLosses(sinceHour: (now - day).floorDivided(by: 3_600_000)),
                    queued: try await storage.queuedOnDevices(reportedSince: now - day))
            }
            let snapshot = metrics.snapshot
            let size = try await withStorageErrors("measure the store") { try await storage.storageBytes() }
            return try .json([
                "now": .int(now),
                "minutes": .object(
                    byNamespace.mapValues { counts in .array(counts.keys.sorted().map { [.int($0), .int(counts[$0]!)] }) }),
                "refusals": .object(snapshot.rejects.mapValues { .int(Int64($0)) }),
                "rejectedRecords": .object(snapshot.recordsRejected.mapValues { .int(Int64($0)) }),
                "recordsStoredHere": .int(Int64(snapshot.recordsStored)),
                "storageBytes": size.map { .int(Int64($0)) } ?? .null,
                "deliveryHealth": health.json,
            ])
        }
        router.get("/console/api/performance") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let hours = request.uri.queryParameters.get("hours").flatMap(Int64.init) ?? 24
            guard (1...168).contains(hours) else { throw CollectorError(.invalidQuery, "hours must be between 1 and 168") }
            let summary = try await withStorageErrors("read the performance rollup") {
                try await PerformanceSummary.read(PerformanceWindow(hours: hours, now: gate.wallClock()), from: storage)
            }
            return try .json(summary.json)
        }
    }
}
