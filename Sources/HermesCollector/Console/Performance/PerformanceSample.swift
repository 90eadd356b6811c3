import HermesWire

/// What one `hermes` record tells the performance page: a launch time (`appBoot`), a hang
/// (`appLag`) or a network request (`net`, `netError`), read from its meta at ingest.
public struct PerformanceSample: Sendable, Hashable {
    /// What is measured: each has its own rows in the rollup.
    public enum Measure: String, Sendable, CaseIterable {
        /// `appBoot`'s `launchMs`, by app version.
        case launch
        /// `appLag`'s `durationMs`.
        case hang
        /// `net` and `netError`'s `durationMs`, by host and path template.
        case request
    }

    /// The meta members a sample is read from.
    static let members = [launchMs, durationMs, host, path, status]
    private static let launchMs = "launchMs"
    private static let durationMs = "durationMs"
    private static let host = "host"
    private static let path = "path"
    private static let status = "status"

    /// Where ``members`` are in the facets' kept meta.
    private enum Slot {
        static let launchMs = RecordFacets.members.slot(PerformanceSample.launchMs)
        static let durationMs = RecordFacets.members.slot(PerformanceSample.durationMs)
        static let host = RecordFacets.members.slot(PerformanceSample.host)
        static let path = RecordFacets.members.slot(PerformanceSample.path)
        static let status = RecordFacets.members.slot(PerformanceSample.status)
    }

    /// What is measured.
    public var measure: Measure
    /// What the breakdown groups by: the app version (`unknown` without one) for a launch, the
    /// route (`host path`) for a request, empty for a hang. Each part is a facet
    /// (`RecordFacets.text(_:)`): `?` for a missing or unusable host, `/` for such a path.
    public var key: String
    /// The duration in milliseconds, or `nil` when the record holds none (a failed request may not).
    public var milliseconds: Double?
    /// Whether the request failed: a `netError`, or an HTTP status of 500 or more.
    public var failed: Bool

    /// Creates a sample.
    public init(measure: Measure, key: String, milliseconds: Double?, failed: Bool = false) {
        self.measure = measure
        self.key = key
        self.milliseconds = milliseconds
        self.failed = failed
    }

    /// The sample a record of `monitorType` reports, or `nil` for other types and for a launch
    /// or hang without its duration.
    init?(monitorType: String, meta: RecordCheck.KeptMeta, appVersion: String?) {
        switch monitorType {
        case MonitorType.appBoot:
            guard let launch = meta[Slot.launchMs]?.doubleValue else { return nil }
            self.init(measure: .launch, key: appVersion ?? "unknown", milliseconds: launch)
        case MonitorType.appLag:
            guard let duration = meta[Slot.durationMs]?.doubleValue else { return nil }
            self.init(measure: .hang, key: "", milliseconds: duration)
        case MonitorType.net, MonitorType.netError:
            let host = RecordFacets.text(meta[Slot.host]) ?? "?"
            let path = RecordFacets.text(meta[Slot.path]) ?? "/"
            let failed = monitorType == MonitorType.netError || (meta[Slot.status]?.intValue ?? 0) >= 500
            self.init(measure: .request, key: "\(host) \(path)", milliseconds: meta[Slot.durationMs]?.doubleValue, failed: failed)
        default:
            return nil
        }
    }

    /// The two rollup cells the sample adds to, for a record created at `createTime` (ms):
    /// its minute's series cell (no key; a launch keeps its histogram bucket, the page charts
    /// launch percentiles over time) and its hour's breakdown cell (the key and the bucket).
    package func cells(createTime: Int64) -> [PerformanceCell] {
        let bucket = milliseconds.map(LatencyHistogram.bucket(of:)) ?? LatencyHistogram.noValue
        let minute = createTime.floorDivided(by: 60_000)
        return [
            PerformanceCell(
                width: PerformanceCell.seriesWidth, start: minute, measure: measure, key: "",
                bucket: measure == .launch ? bucket : LatencyHistogram.noValue),
            PerformanceCell(
                width: PerformanceCell.breakdownWidth,
                start: minute.floorDivided(by: PerformanceCell.breakdownWidth) * PerformanceCell.breakdownWidth,
                measure: measure, key: key, bucket: bucket),
        ]
    }
}
