import HermesCollector
import Testing

/// The cells of `GET /v1/events/export?format=csv`.
struct EventExportFormatTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("=1+2", "'=1+2"),
        ("+33 6 12", "'+33 6 12"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("=A1,\"x\"", "\"'=A1,\"\"x\"\"\""),
        ("\r\n", "\"'\r\n\""),
        ("", ""),
    ])
    func textCellsAreDefusedThenQuoted(text: String, cell: String) {
        #expect(EventExportFormat.csvText(text) == cell)
    }

    @Test func anAbsentValueIsAnEmptyCell() {
        #expect(EventExportFormat.csvText(nil) == "")
    }
}
