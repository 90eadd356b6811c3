@testable import HermesCollector
import HermesWire
import Testing

struct PerformanceSummaryTests {
    static func event(_ type: String, at time: Int64, _ meta: [String: JSONValue]) -> StoredEvent {
        StoredEvent(
            namespace: "hermes", reportID: "\(type)-\(time)", monitorType: type, createTime: time, meta: .object(meta), payload: nil, deviceID: nil,
            batchID: nil, receivedAt: time)
    }

    @Test func nearestRankPercentiles() {
        let values = Percentiles((1...100).map(Double.init))
        #expect(values.at(0.5) == 50)
        #expect(values.at(0.95) == 95)
        #expect(values.at(1) == 100)
        #expect(Percentiles([7]).at(0.95) == 7)
        #expect(Percentiles([]).at(0.5) == nil)
    }

    @Test func launchesHangsAndRequestsAreSummedByVersionRouteAndBucket() throws {
        let buckets = TimeBuckets(ending: 4_000, width: 1_000, count: 4)
        var summary = PerformanceSummary(buckets: buckets)
        for (index, launch) in [100.0, 200, 300, 400].enumerated() {
            summary.add(
                Self.event(MonitorType.appBoot, at: Int64(index) * 1_000, ["launchMs": .double(launch), "APP_VERSION": index < 2 ? "1.0" : "2.0"]))
        }
        summary.add(Self.event(MonitorType.appLag, at: 3_500, ["durationMs": 2_500]))
        summary.add(Self.event(MonitorType.net, at: 100, ["host": "api", "path": "/a/:id", "status": 200, "durationMs": 40]))
        summary.add(Self.event(MonitorType.net, at: 200, ["host": "api", "path": "/a/:id", "status": 503, "durationMs": 90]))
        summary.add(Self.event(MonitorType.netError, at: 1_200, ["host": "api", "path": "/a/:id", "durationMs": 10_000]))
        summary.add(Self.event(MonitorType.net, at: 9_999, ["host": "cdn", "path": "/img", "status": 200, "durationMs": 5]))
        summary.add(Self.event("pay", at: 100, ["launchMs": 1]))
        let json = summary.json
        #expect(json["buckets"] == [0, 1_000, 2_000, 3_000])
        #expect(
            json["launch"]?["byVersion"] == [
                ["appVersion": "1.0", "count": 2, "p50": 100.0, "p95": 200.0], ["appVersion": "2.0", "count": 2, "p50": 300.0, "p95": 400.0],
            ])
        #expect(json["launch"]?["p50Series"] == [100.0, 200.0, 300.0, 400.0])
        #expect(json["hangs"]?["count"] == 1)
        #expect(json["hangs"]?["series"] == [0, 0, 0, 1])
        let routes = try #require(json["network"]?["routes"])
        #expect(routes[0]?["host"] == "api")
        #expect(routes[0]?["requests"] == 3)
        #expect(routes[0]?["errorRate"] == .double(2.0 / 3.0))
        #expect(routes[0]?["p95"] == 10_000.0)
        // Outside the buckets: counted in the table, not in the series
        #expect(routes[1]?["host"] == "cdn")
        #expect(json["network"]?["requestSeries"] == [2, 1, 0, 0])
        #expect(json["network"]?["errorSeries"] == [1, 1, 0, 0])
    }
}
