import HermesCollector
@testable import HermesHarness
import Testing

/// `hermes bench export`: its chunked reader, and a short run on SQLite.
struct ExportBenchmarkTests {
    @Test func theDownloadCountsTheBodyOfAChunkedAnswerReadInAnyPieces() throws {
        // Given an answer of two chunks (three lines), cut into pieces of 3 bytes
        let answer = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\na\nbb\nc\r\n3\r\n\ndd\r\n0\r\n\r\n".utf8)
        var download = ExportDownload()
        for start in stride(from: 0, to: answer.count, by: 3) {
            try download.take(answer[start..<min(start + 3, answer.count)])
        }
        // Then the body's bytes and lines are counted, the chunk framing not
        #expect(download.outcome.status == 200)
        #expect(download.outcome.bytes == 9)
        #expect(download.outcome.lines == 3)
        #expect(download.isDone)
    }

    @Test func aShortRunOnSQLiteExportsEveryRecordInBothFormats() async throws {
        let report = try await ExportBenchmark(records: 2_000, postgresURL: nil).run()
        let figures = Dictionary(uniqueKeysWithValues: report.figures.map { ($0.key, $0.value) })
        #expect(figures["records"] == 2_000)
        for format in ["ndjson", "csv"] {
            for key in ["records_per_s", "mb_per_s", "rss_before_mb", "rss_at_tenth_mb", "peak_mb", "rss_after_mb"] {
                #expect((figures["\(format)_\(key)"] ?? 0) > 0, "\(format)_\(key)")
            }
        }
    }
}
