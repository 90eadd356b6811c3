import HermesCollector
import HermesWire
import Logging
import Testing

/// The collector's JSON log lines.
struct JSONLogHandlerTests {
    @Test func eachEntryIsOneJSONObjectOnItsOwnLine() throws {
        let lines = Locked<[[UInt8]]>([])
        var logger = Logger(label: "hermes.collector") { label in JSONLogHandler(label: label) { line in lines.withLock { $0.append(line) } } }
        logger[metadataKey: "instance"] = "a"
        logger.notice("request refused", metadata: ["error": "unauthorized"])
        logger.debug("below the level")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.last == UInt8(ascii: "\n"))
        let json = try JSONValue(parsing: line.dropLast())
        #expect(json["message"] == "request refused")
        #expect(json["level"] == "notice")
        #expect(json["label"] == "hermes.collector")
        #expect(json["error"] == "unauthorized")
        #expect(json["instance"] == "a")
        #expect(json["time"]?.stringValue?.hasSuffix("Z") == true)
    }
}
