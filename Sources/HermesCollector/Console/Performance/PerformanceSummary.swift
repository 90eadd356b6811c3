import HermesWire

/// The performance page's figures, from the performance rollup (``PerformanceCell``): launch
/// time by app version, hangs, and network requests by host and path template from the hourly
/// cells; each over time from the one-minute cells. Percentiles are read from the rollup's
/// histograms (`LatencyHistogram`: within 5 % of the exact value).
struct PerformanceSummary {
    let window: PerformanceWindow
    /// One-minute cells summed by the window's slots.
    let series: [PerformanceRollupRow]
    /// Hourly cells summed over the window (slot 0).
    let breakdown: [PerformanceRollupRow]

    /// How many routes the network table lists, the busiest first.
    static let routeLimit = 50

    /// Reads the window's cells from `storage`.
    static func read(_ window: PerformanceWindow, from storage: some ConsoleStorage) async throws -> Self {
        Self(
            window: window,
            series: try await storage.performanceRollup(
                width: PerformanceCell.seriesWidth, from: window.firstMinute, until: window.endMinute, slotMinutes: window.slotMinutes),
            breakdown: try await storage.performanceRollup(
                width: PerformanceCell.breakdownWidth, from: window.breakdownFirstMinute, until: window.endMinute,
                slotMinutes: window.endMinute - window.breakdownFirstMinute))
    }

    /// The figures as the console's performance API sends them.
    var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
        func counts(_ rows: some Sequence<PerformanceRollupRow>) -> [Int64: Int64] {
            rows.reduce(into: [:]) { counts, row in counts[row.bucket, default: 0] += row.totals.samples }
        }
        var launchSlots = Array(repeating: [Int64: Int64](), count: window.count)
        var hangSlots = Array(repeating: Int64(0), count: window.count)
        var requestSlots = Array(repeating: Int64(0), count: window.count)
        var errorSlots = Array(repeating: Int64(0), count: window.count)
        var hangs = PerformanceTotals()
        for row in series where (0..<Int64(window.count)).contains(row.slot) {
            let slot = Int(row.slot)
            switch row.measure {
            case .launch: launchSlots[slot][row.bucket, default: 0] += row.totals.samples
            case .hang:
                hangSlots[slot] += row.totals.samples
                hangs.add(row.totals)
            case .request:
                requestSlots[slot] += row.totals.samples
                errorSlots[slot] += row.totals.failures
            }
        }
        let byMeasure = Dictionary(grouping: breakdown, by: \.measure)
        let launches = Dictionary(grouping: byMeasure[.launch] ?? [], by: \.key)
        let launchRows = launches.keys.sorted().map { version -> JSONValue in
            let buckets = counts(launches[version]!)
            return [
                "appVersion": .string(version), "count": .int(buckets.values.reduce(0, +)),
                "p50": number(LatencyHistogram.percentile(0.5, of: buckets)), "p95": number(LatencyHistogram.percentile(0.95, of: buckets)),
            ]
        }
        let routes = Dictionary(grouping: byMeasure[.request] ?? [], by: \.key).map { key, rows in
            (key: key, rows: rows, totals: rows.reduce(into: PerformanceTotals()) { $0.add($1.totals) })
        }
        let routeRows = routes.sorted { ($0.totals.samples, $1.key) > ($1.totals.samples, $0.key) }.prefix(Self.routeLimit).map {
            route -> JSONValue in
            let parts = route.key.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let buckets = counts(route.rows)
            let total = route.totals.samples
            return [
                "host": .string(String(parts[0])), "path": .string(parts.count > 1 ? String(parts[1]) : ""), "requests": .int(total),
                "errorRate": .double(total == 0 ? 0 : Double(route.totals.failures) / Double(total)),
                "p50": number(LatencyHistogram.percentile(0.5, of: buckets)), "p95": number(LatencyHistogram.percentile(0.95, of: buckets)),
            ]
        }
        return [
            "buckets": .array(window.starts.map(JSONValue.int)),
            "breakdownSince": .int(window.breakdownFirstMinute * 60_000),
            "launch": [
                "byVersion": .array(launchRows),
                "p50Series": .array(launchSlots.map { number(LatencyHistogram.percentile(0.5, of: $0)) }),
                "p95Series": .array(launchSlots.map { number(LatencyHistogram.percentile(0.95, of: $0)) }),
            ],
            "hangs": [
                "count": .int(hangs.samples), "totalMs": .double(hangs.milliseconds),
                "p95": number(LatencyHistogram.percentile(0.95, of: counts(byMeasure[.hang] ?? []))),
                "series": .array(hangSlots.map(JSONValue.int)),
            ],
            "network": [
                "routes": .array(Array(routeRows)), "requestSeries": .array(requestSlots.map(JSONValue.int)),
                "errorSeries": .array(errorSlots.map(JSONValue.int)),
            ],
        ]
    }
}
