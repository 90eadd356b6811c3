@testable import HermesHarness
import Testing

/// `hermes bench upload`: a short run delivers exactly the records it stored.
struct UploadBenchmarkTests {
    @Test func aShortRunUploadsExactlyTheRecordsItStored() async throws {
        let report = try await UploadBenchmark(records: 2_000).run()
        let figures = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.key, $0.value) })
        // The started client sends nothing of its own (no sdkHealth record) into the count.
        #expect(figures["records"] == 2_000)
        #expect((figures["requests"] ?? 0) >= 20)
        #expect((figures["assemble_encode_records_per_s"] ?? 0) > 0)
        #expect((figures["wire_ratio"] ?? 1) < 0.5)
    }
}
