import Foundation
@testable import HermesCollector
import HermesWire
import Testing

/// The performance page's figures: the histogram they are read from, the window's slots, and
/// the rollup as each store keeps it from the records it stores.
struct PerformanceSummaryTests {
    typealias Contract = CollectorStorageContractTests

    static func monitor(_ id: String, _ type: String, at time: Int64, _ meta: [String: JSONValue]) throws -> IngestRecord {
        IngestRecord(
            namespace: RecordNamespace.monitoring, reportID: id, monitorType: type, createTime: time,
            meta: try CollectorFixture.metaLine(id, namespace: RecordNamespace.monitoring, type: type, createTime: time, extra: meta),
            payload: nil)
    }

    @Test func histogramPercentilesAreWithinFivePercentAtEveryScale() {
        for scale in [0.7, 3.0, 120.0, 4_000.0, 90_000.0] {
            let values = (1...200).map { Double($0) * scale }
            var counts: [Int64: Int64] = [:]
            for value in values { counts[LatencyHistogram.bucket(of: value), default: 0] += 1 }
            for fraction in [0.5, 0.95, 1.0] {
                let exact = values[Int((fraction * 200).rounded(.up)) - 1]
                let estimate = try! #require(LatencyHistogram.percentile(fraction, of: counts))
                #expect(abs(estimate - exact) / exact <= 0.05 || exact < 1, "\(fraction) at scale \(scale): \(estimate) for \(exact)")
            }
        }
        #expect(LatencyHistogram.bucket(of: 0.2) == 0)
        #expect(LatencyHistogram.bucket(of: -5) == 0)
        #expect(LatencyHistogram.bucket(of: .infinity) == LatencyHistogram.lastBucket)
        #expect(LatencyHistogram.percentile(0.5, of: [LatencyHistogram.noValue: 3]) == nil)
    }

    @Test func theWindowEndsWithTheCurrentMinuteInWholeMinuteSlots() {
        let now: Int64 = 1_795_400_123_456
        let minute = now / 60_000
        let hour = PerformanceWindow(hours: 1, now: now)
        #expect((hour.slotMinutes, hour.count) == (1, 60))
        #expect(hour.endMinute == minute + 1)
        let day = PerformanceWindow(hours: 24, now: now)
        #expect((day.slotMinutes, day.count) == (30, 48))
        #expect(day.endMinute - day.firstMinute == 24 * 60)
        #expect(day.breakdownFirstMinute % 60 == 0 && day.breakdownFirstMinute <= day.firstMinute)
        #expect(day.starts.first == day.firstMinute * 60_000)
        let week = PerformanceWindow(hours: 168, now: now)
        #expect((week.slotMinutes, week.count) == (210, 48))
    }

    @Test(arguments: StorageKind.available)
    func theRollupSumsNewRecordsByVersionRouteAndSlot(kind: StorageKind) async throws {
        // An hour and a half ago, on a minute boundary
        let now: Int64 = 1_795_400_000_000 - 1_795_400_000_000 % 3_600_000 + 30 * 60_000
        let start = now - 90 * 60_000
        var records: [IngestRecord] = []
        for (index, launch) in [100.0, 200, 300, 400].enumerated() {
            records.append(
                try Self.monitor(
                    "boot\(index)", MonitorType.appBoot, at: start + Int64(index) * 60_000,
                    ["launchMs": .double(launch), "APP_VERSION": .string(index < 2 ? "1.0" : "2.0")]))
        }
        records.append(try Self.monitor("lag", MonitorType.appLag, at: start + 60 * 60_000, ["durationMs": 2_500]))
        records.append(try Self.monitor("n1", MonitorType.net, at: start, ["host": "api", "path": "/a/:id", "status": 200, "durationMs": 40]))
        records.append(try Self.monitor("n2", MonitorType.net, at: start + 1, ["host": "api", "path": "/a/:id", "status": 503, "durationMs": 90]))
        records.append(try Self.monitor("n3", MonitorType.netError, at: start + 60_000, ["host": "api", "path": "/a/:id", "error": "timeout"]))
        records.append(
            try Self.monitor("n4", MonitorType.net, at: start + 2 * 60_000, ["host": "cdn", "path": "/img", "status": 200, "durationMs": 5]))
        records.append(try Self.monitor("other", "pay", at: start, ["launchMs": 1]))
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Contract.batch(Array(records[..<5])))
                // A resend of the whole day beside the rest: each record counts once
                _ = try await store.store(Contract.batch(records, batchID: "again"))
                let window = PerformanceWindow(hours: 2, now: now)
                let summary = try await PerformanceSummary.read(window, from: store)
                let json = summary.json
                func near(_ value: JSONValue?, _ exact: Double) -> Bool {
                    guard let value = value?.doubleValue else { return false }
                    return abs(value - exact) / exact <= 0.05
                }
                let versions = try #require(json["launch"]?["byVersion"]?.arrayValue)
                #expect(versions.map { $0["appVersion"] } == ["1.0", "2.0"])
                #expect(versions.map { $0["count"] } == [2, 2])
                #expect(near(versions[0]["p50"], 100) && near(versions[0]["p95"], 200))
                #expect(near(versions[1]["p50"], 300) && near(versions[1]["p95"], 400))
                // 2-minute slots: `start` is the second minute of its slot, so the launches fall
                // in slots s, s+1, s+1, s+2 and the requests in s, s, s+1, s+1
                let slot = Int((start / 60_000 - window.firstMinute) / window.slotMinutes)
                #expect((start / 60_000 - window.firstMinute) % window.slotMinutes == 1)
                let p50 = try #require(json["launch"]?["p50Series"]?.arrayValue)
                #expect(p50.count == window.count)
                #expect(near(p50[slot], 100) && near(p50[slot + 1], 200) && near(p50[slot + 2], 400))
                #expect(p50.filter { $0 != .null }.count == 3)
                #expect(json["hangs"]?["count"] == 1)
                #expect(json["hangs"]?["totalMs"] == 2_500.0)
                #expect(near(json["hangs"]?["p95"], 2_500))
                let routes = try #require(json["network"]?["routes"]?.arrayValue)
                #expect(routes.map { $0["host"] } == ["api", "cdn"])
                #expect(routes[0]["path"] == "/a/:id")
                #expect(routes[0]["requests"] == 3)
                #expect(routes[0]["errorRate"] == .double(2.0 / 3.0))
                #expect(near(routes[0]["p95"], 90))
                let requests = try #require(json["network"]?["requestSeries"]?.arrayValue)
                #expect(requests[slot] == 2 && requests[slot + 1] == 2 && requests.reduce(0) { $0 + ($1.intValue ?? 0) } == 4)
                let errors = try #require(json["network"]?["errorSeries"]?.arrayValue)
                #expect(errors[slot] == 1 && errors[slot + 1] == 1)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func retentionRemovesTheRollupsOfTheDaysItRemoves(kind: StorageKind) async throws {
        let today = UTCDay.start(of: Int64(Date().timeIntervalSince1970 * 1000))
        let yesterday = today - UTCDay.milliseconds
        let records = try [yesterday, today].map { time in
            try Self.monitor("n\(time)", MonitorType.net, at: time, ["host": "api", "path": "/a", "durationMs": 10])
        }
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Contract.batch([records[0]], receivedAt: yesterday))
                _ = try await store.store(Contract.batch([records[1]], receivedAt: today))
                func hours() async throws -> [Int64] {
                    try await store.performanceRollup(width: PerformanceCell.breakdownWidth, from: 0, until: .max / 2, slotMinutes: 60)
                        .map(\.slot).sorted()
                }
                #expect(try await hours() == [yesterday / 3_600_000, today / 3_600_000])
                _ = try await store.removeDays(before: today)
                #expect(try await hours() == [today / 3_600_000])
                #expect(try await store.recordMinutes(since: 0).map(\.minute) == [today / 60_000])
            }
        }
    }
}
