import HermesWire
import Testing

struct GzipTests {
    let text = Array(String(repeating: "{\"MONITOR_TYPE\":\"appLag\",\"duration_ms\":420}\n", count: 200).utf8)

    @Test func roundTrips() throws {
        let packed = try Gzip.compress(text)
        #expect(packed.count < text.count / 5)
        #expect(try Gzip.decompress(packed, limit: text.count) == text)
        #expect(try Gzip.decompress(Gzip.compress([]), limit: 10) == [])
    }

    @Test func outputIsDeterministicWithAPortableHeader() throws {
        let packed = try Gzip.compress(text)
        #expect(try Gzip.compress(text) == packed)
        // ID1 ID2 CM FLG MTIME(4) XFL OS: no name, no time, OS "unknown".
        #expect(Array(packed.prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])
    }

    @Test func aStreamKeptFromEarlierInputsGivesTheSameBytes() async throws {
        // Given the bytes of a first compression at level 1
        let first = try Gzip.compress(text, level: Gzip.fastLevel)
        // When the kept streams compress other inputs, some at once, then the same text again
        let others = (0..<8).map { Array(String(repeating: "other \($0) ", count: 500 * ($0 + 1)).utf8) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for other in others {
                group.addTask {
                    let back = try Gzip.decompress(Gzip.compress(other, level: Gzip.fastLevel), limit: other.count)
                    #expect(back == other)
                }
            }
            try await group.waitForAll()
        }
        // Then the output is the same, byte for byte
        #expect(try Gzip.compress(text, level: Gzip.fastLevel) == first)
        #expect(try Gzip.compress([], level: Gzip.fastLevel) == Gzip.compress([], level: Gzip.fastLevel))
    }

    @Test func outputBeyondTheLimitIsRefused() throws {
        let packed = try Gzip.compress(text)
        expectWireError(.outputTooLarge) { try Gzip.decompress(packed, limit: text.count - 1) }
    }

    @Test func truncatedOrTrailingInputIsRefused() throws {
        let packed = try Gzip.compress(text)
        for cut in [1, 5, packed.count / 2, packed.count - 1] {
            expectWireError(.decompressionFailed) { try Gzip.decompress(Array(packed.prefix(cut)), limit: 1 << 20) }
        }
        expectWireError(.decompressionFailed) { try Gzip.decompress(packed + [0], limit: 1 << 20) }
        expectWireError(.decompressionFailed) { try Gzip.decompress(Array("not gzip".utf8), limit: 1 << 20) }
    }

    @Test func theGzipCommandInflatesOurOutput() throws {
        guard let result = try runTool("gzip", ["-dc"], input: try Gzip.compress(text)) else {
            print("skipped: the gzip command is not installed")
            return
        }
        #expect(result.status == 0)
        #expect(result.output == text)
    }

    @Test func weInflateTheGzipCommandsOutput() throws {
        guard let result = try runTool("gzip", ["-c", "-9"], input: text) else {
            print("skipped: the gzip command is not installed")
            return
        }
        #expect(try Gzip.decompress(result.output, limit: 1 << 20) == text)
    }
}
