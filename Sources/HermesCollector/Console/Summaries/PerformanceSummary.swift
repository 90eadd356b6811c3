import HermesWire

/// The performance page's figures from the `hermes` records of a time range: launch time
/// (`appBoot` `launchMs`) by app version, hangs (`appLag` `durationMs`), and network requests
/// (`net`, `netError`) by host and path template; each also per time bucket.
struct PerformanceSummary {
    private var launches: [String: [Double]] = [:]
    private var launchSeries: [[Double]]
    private var hangs: [Double] = []
    private var hangSeries: [Int]
    private var requests: [String: RequestTally] = [:]
    private var requestSeries: [Int]
    private var errorSeries: [Int]
    private let buckets: TimeBuckets

    /// A network route's requests.
    private struct RequestTally {
        var host: String
        var path: String
        var durations: [Double] = []
        var errors = 0

        mutating func add(duration: Double?, failed: Bool) {
            if let duration { durations.append(duration) }
            if failed { errors += 1 }
        }
    }

    init(buckets: TimeBuckets) {
        self.buckets = buckets
        launchSeries = Array(repeating: [], count: buckets.count)
        hangSeries = Array(repeating: 0, count: buckets.count)
        requestSeries = Array(repeating: 0, count: buckets.count)
        errorSeries = Array(repeating: 0, count: buckets.count)
    }

    /// Counts one record; records of other types are ignored.
    mutating func add(_ event: StoredEvent) {
        let bucket = buckets.index(of: event.createTime)
        switch event.monitorType {
        case MonitorType.appBoot:
            guard let launch = event.meta["launchMs"]?.doubleValue else { return }
            launches[event.meta["APP_VERSION"]?.stringValue ?? "unknown", default: []].append(launch)
            if let bucket { launchSeries[bucket].append(launch) }
        case MonitorType.appLag:
            guard let duration = event.meta["durationMs"]?.doubleValue else { return }
            hangs.append(duration)
            if let bucket { hangSeries[bucket] += 1 }
        case MonitorType.net, MonitorType.netError:
            let host = event.meta["host"]?.stringValue ?? "?"
            let path = event.meta["path"]?.stringValue ?? "/"
            let failed = event.monitorType == MonitorType.netError || (event.meta["status"]?.intValue ?? 0) >= 500
            // In place: a copy taken out and put back would copy the route's durations at each record.
            requests["\(host) \(path)", default: RequestTally(host: host, path: path)].add(
                duration: event.meta["durationMs"]?.doubleValue, failed: failed)
            if let bucket {
                requestSeries[bucket] += 1
                if failed { errorSeries[bucket] += 1 }
            }
        default:
            return
        }
    }

    /// The figures as the console's performance API sends them.
    var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
        let launchRows = launches.keys.sorted().map { version -> JSONValue in
            let values = Percentiles(launches[version]!)
            return [
                "appVersion": .string(version), "count": .int(Int64(launches[version]!.count)), "p50": number(values.at(0.5)),
                "p95": number(values.at(0.95)),
            ]
        }
        let hangValues = Percentiles(hangs)
        let routes = requests.values.sorted { ($0.durations.count, $0.host, $0.path) > ($1.durations.count, $1.host, $1.path) }
            .prefix(50).map { tally -> JSONValue in
                let values = Percentiles(tally.durations)
                let total = max(tally.durations.count, tally.errors)
                return [
                    "host": .string(tally.host), "path": .string(tally.path), "requests": .int(Int64(total)),
                    "errorRate": .double(total == 0 ? 0 : Double(tally.errors) / Double(total)), "p50": number(values.at(0.5)),
                    "p95": number(values.at(0.95)),
                ]
            }
        return [
            "buckets": .array(buckets.starts.map(JSONValue.int)),
            "launch": [
                "byVersion": .array(launchRows), "p50Series": .array(launchSeries.map { number(Percentiles($0).at(0.5)) }),
                "p95Series": .array(launchSeries.map { number(Percentiles($0).at(0.95)) }),
            ],
            "hangs": [
                "count": .int(Int64(hangs.count)), "totalMs": .double(hangs.reduce(0, +)), "p95": number(hangValues.at(0.95)),
                "series": .array(hangSeries.map { .int(Int64($0)) }),
            ],
            "network": [
                "routes": .array(Array(routes)), "requestSeries": .array(requestSeries.map { .int(Int64($0)) }),
                "errorSeries": .array(errorSeries.map { .int(Int64($0)) }),
            ],
        ]
    }
}
