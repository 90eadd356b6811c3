import HermesWire
import Hummingbird

/// The overview and performance pages' figures, for viewers:
/// - `GET /console/api/overview`: new records per minute by namespace over the last 24 hours
///   (from the per-minute rollup), this instance's refusals by code and rejected records by
///   reason since it started, the store's size, and the SDKs' own delivery health over the
///   last 24 hours;
/// - `GET /console/api/performance?hours=N` (1…168, default 24): launch time, hangs and
///   network figures over the last `hours`, in 48 buckets.
struct ConsoleInsightRoutes<Storage: CollectorStorage> {
    /// The most records one summary reads; past it the answer says `capped`.
    static var scanCap: Int { 200_000 }

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
            for row in minutes { byNamespace[row.namespace, default: [:]][row.minute, default: 0] += row.records }
            var health = DeliveryHealthSummary()
            let capped = try await storage.scan(
                EventQuery(namespace: RecordNamespace.monitoring, monitorType: MonitorType.sdkHealth, since: now - day), cap: Self.scanCap
            ) { health.add($0) }
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
                "capped": .bool(capped),
            ])
        }
        router.get("/console/api/performance") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let hours = request.uri.queryParameters.get("hours").flatMap(Int64.init) ?? 24
            guard (1...168).contains(hours) else { throw CollectorError(.invalidQuery, "hours must be between 1 and 168") }
            let now = gate.wallClock()
            let buckets = TimeBuckets(ending: now, width: hours * 3_600_000 / 48, count: 48)
            var summary = PerformanceSummary(buckets: buckets)
            var capped = false
            for type in [MonitorType.appBoot, MonitorType.appLag, MonitorType.net, MonitorType.netError] {
                let query = EventQuery(namespace: RecordNamespace.monitoring, monitorType: type, since: buckets.start, until: now + 1)
                capped = try await storage.scan(query, cap: Self.scanCap) { summary.add($0) } || capped
            }
            guard case .object(var fields) = summary.json else { return try .json(summary.json) }
            fields["capped"] = .bool(capped)
            return try .json(.object(fields))
        }
    }
}
