import HermesCollector
@testable import HermesHarness
import HermesWire
import Testing

/// `hermes bench console`: the records it fills the store with, and a short run on SQLite.
struct ConsoleBenchmarkTests {
    @Test func eachBatchIsBuiltFromItsIndexAloneWithinTheDayBeforeNow() throws {
        // Given a workload of 2,050 records ending at a fixed time
        let now: Int64 = 1_800_000_000_000
        let workload = ConsoleWorkload(records: 2_050, now: now)
        // When its batches are built
        let batches = try (0..<workload.batchCount).map { try workload.batch($0) }
        // Then there are 21, the last one short, and a batch built again is the same
        #expect(batches.map(\.records.count) == Array(repeating: 100, count: 20) + [50])
        #expect(try workload.batch(7) == batches[7])
        // And every record is unique, made and received in the day before now
        let records = batches.flatMap(\.records)
        #expect(Set(records.map { "\($0.namespace)/\($0.reportID)" }).count == 2_050)
        #expect(records.allSatisfy { $0.createTime >= now - ConsoleWorkload.span && $0.createTime < now })
        #expect(batches.allSatisfy { batch in batch.receivedAt < now && batch.records.allSatisfy { $0.createTime <= batch.receivedAt } })
        // And the mix holds the monitoring namespace and three business ones, crashes with a stack
        #expect(Set(records.map(\.namespace)) == ["hermes", "JZ", "KX", "QT"])
        let crashes = records.filter { $0.monitorType == MonitorType.appCrash }
        #expect(!crashes.isEmpty && crashes.allSatisfy { String(decoding: $0.payload ?? [], as: UTF8.self).hasPrefix("Crashed: SIG") })
        let business = records.filter { RecordNamespace.isBusiness($0.namespace) }
        #expect(business.allSatisfy { $0.monitorType.hasPrefix($0.namespace + "-") })
    }

    @Test func aShortRunOnSQLiteReportsEveryPageAndTheTail() async throws {
        // When the benchmark runs over 2,000 records, asking for each page 3 times
        let report = try await ConsoleBenchmark(records: 2_000, postgresURL: nil, runs: 3).run()
        // Then every figure is there and positive (the run fails unless every page answered 200,
        // every crash record was grouped and every upload reached the tail)
        let figures = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.key, $0.value) })
        #expect(figures["records"] == 2_000)
        #expect(figures["runs"] == 3)
        for key in [
            "fill_s", "filtered_records", "crash_records", "crash_grouping_records_per_s", "overview_ms_p95", "records_page_ms_p95",
            "filtered_page_ms_p95", "user_page_ms_p95", "performance_ms_p95", "crash_groups_ms_p95", "tail_latency_ms_p95",
        ] {
            #expect(try #require(figures[key]) > 0, "\(key)")
        }
    }
}
