@testable import HermesWire
import Testing

struct PacketLinesTests {
    @Test func aMetaBlockSplitsAtEachNewline() throws {
        #expect(try Packet.lines(ofMetaBlock: Array("{}".utf8)) == [Array("{}".utf8)])
        #expect(try Packet.lines(ofMetaBlock: Array("{\"a\":1}\n{}\nx".utf8)) == [Array("{\"a\":1}".utf8), Array("{}".utf8), Array("x".utf8)])
    }

    @Test(arguments: ["", "\n", "{}\n", "\n{}", "{}\n\n{}", "{}\n{}\n"])
    func anEmptyLineIsRefused(block: String) {
        #expect {
            try Packet.lines(ofMetaBlock: Array(block.utf8))
        } throws: { error in
            (error as? HermesWireError)?.code == .invalidMetaLine
        }
    }

    @Test func aNewlineIsFoundAtEveryOffsetOfALongBlock() throws {
        for offset in 0..<300 {
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
            bytes[offset] = 0x0A
            let found = bytes.withUnsafeBufferPointer { buffer in (0...offset).map { buffer.firstNewline(from: $0) } }
            #expect(found.allSatisfy { $0 == offset }, "newline at \(offset)")
            #expect(bytes.withUnsafeBufferPointer { $0.firstNewline(from: offset + 1) } == nil)
            #expect(throws: HermesWireError.self) { try Packet(kind: .meta, metaLines: [bytes]).validate() }
        }
    }

    @Test func linesJoinedAndSplitAreTheSame() throws {
        var random = UInt64(30)
        for _ in 0..<200 {
            let lines = (0..<(1 + Int(random % 7))).map { index -> [UInt8] in
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Array(repeating: UInt8(ascii: "a") + UInt8(index), count: 1 + Int(random >> 58))
            }
            #expect(try Packet.lines(ofMetaBlock: Packet(kind: .meta, metaLines: lines).metaBlock) == lines)
        }
    }
}
