import ArgumentParser
@testable import hermes
import HermesWire
import Logging
import Synchronization
import Testing

struct JSONLogHandlerTests {
    @Test func eachEntryIsOneJSONObjectOnItsOwnLine() throws {
        let lines = Mutex<[[UInt8]]>([])
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

    @Test func serveTakesALogLevelAndJSON() throws {
        let serve = try #require(try HermesCommand.parseAsRoot([
            "collector", "serve", "--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t",
            "--aes-key", "1:000102030405060708090a0b0c0d0e0f", "--log-level", "debug", "--log-json",
        ]) as? CollectorServeCommand)
        #expect(serve.logLevel == .debug)
        #expect(serve.logJSON)
    }
}
