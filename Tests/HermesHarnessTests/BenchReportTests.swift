@testable import HermesHarness
import HermesWire
import Testing

/// How `hermes bench` prints its figures.
struct BenchReportTests {
    @Test func everySuiteGoesIntoOneTableAndOneJSONObject() throws {
        var wire = BenchReport()
        wire.add("encode_mb_per_s", 81.25, "v2 encode (MB/s)")
        var store = BenchReport()
        store.add("durable_records_per_s", 21_170.4, "durable records/s")

        #expect(
            BenchReport.table([("wire", wire), ("store", store)]) == """
                suite  figure             value
                wire   v2 encode (MB/s)   81.25
                store  durable records/s  21170
                """)
        #expect(
            try BenchReport.json([("wire", wire), ("store", store)]).jsonString()
                == #"{"store":{"durable_records_per_s":21170.4},"wire":{"encode_mb_per_s":81.25}}"#)
    }
}
