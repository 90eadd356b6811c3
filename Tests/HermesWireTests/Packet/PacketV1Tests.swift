import HermesWire
import Testing

struct PacketV1Tests {
    let cipher = try! AESCBCCipher(key: Array(repeating: 1, count: 16), iv: Array(repeating: 2, count: 16))
    var decoder: PacketDecoder { PacketDecoder(keyring: Keyring([cipher])) }

    @Test func aMetaPacketIsTheSealedMetaBlockAndRoundTrips() throws {
        let lines = sampleMetaLines(3)
        let body = try WireFormat.v1(cipher).encode(Packet(kind: .meta, metaLines: lines))

        let opened = try Gzip.decompress(cipher.open(body, authenticating: []), limit: 1 << 20)
        #expect(opened == Array(lines.joined(separator: [0x0A])))
        let decoded = try decoder.decode(body, kind: .meta, version: 1)
        #expect(decoded.packet == Packet(kind: .meta, metaLines: lines))
        #expect(decoded.version == 1 && decoded.algorithm == .aes128CBC)
    }

    @Test func aPayloadPacketHasTheBigEndianHeaderOfTheSpec() throws {
        let lines = sampleMetaLines(2)
        let payloads = [Array("stack one".utf8), []]
        let body = try WireFormat.v1(cipher).encode(Packet(kind: .payload, metaLines: lines, payloads: payloads))

        let metaLength = Int(body[0]) << 8 | Int(body[1])
        #expect(body[2] == 2)
        let firstLength = Int(body[3]) << 24 | Int(body[4]) << 16 | Int(body[5]) << 8 | Int(body[6])
        let secondLength = Int(body[7]) << 24 | Int(body[8]) << 16 | Int(body[9]) << 8 | Int(body[10])
        #expect(secondLength == 0)
        #expect(11 + metaLength + firstLength == body.count)
        let payloadBlock = Array(body[(11 + metaLength)...])
        #expect(try Gzip.decompress(cipher.open(payloadBlock, authenticating: []), limit: 100) == payloads[0])

        let decoded = try decoder.decode(body, kind: .payload, version: 1)
        #expect(decoded.packet.metaLines == lines)
        #expect(decoded.packet.payloads == payloads)
    }

    @Test func morethan255PayloadsIsATypedError() {
        let lines = sampleMetaLines(256)
        let packet = Packet(kind: .payload, metaLines: lines, payloads: Array(repeating: [1], count: 256))
        expectWireError(.tooManyPayloads) { try WireFormat.v1(cipher).encode(packet) }
    }

    @Test func aMetaBlockOver64KiBIsATypedError() {
        // Random-looking meta does not compress, so the sealed block outgrows the u16 length.
        var random = SystemRandomNumberGenerator()
        let lines = (0..<250).map { _ in
            Array("{\"x\":\"\((0..<500).map { _ in String(random.next() % 36, radix: 36) }.joined())\"}".utf8)
        }
        let packet = Packet(kind: .payload, metaLines: lines, payloads: Array(repeating: [], count: lines.count))
        expectWireError(.metaBlockTooLarge) { try WireFormat.v1(cipher).encode(packet) }
        #expect(throws: Never.self) { try WireFormat.v1(cipher).encode(Packet(kind: .meta, metaLines: lines)) }
    }

    @Test func malformedPacketsAreTypedErrors() throws {
        let body = try WireFormat.v1(cipher).encode(Packet(kind: .payload, metaLines: sampleMetaLines(2), payloads: [[1], [2]]))
        expectWireError(.truncatedPacket) { try decoder.decode([0], kind: .payload, version: 1) }
        expectWireError(.truncatedPacket) { try decoder.decode(Array(body.dropLast()), kind: .payload, version: 1) }
        expectWireError(.inconsistentPacket) { try decoder.decode(body + [0], kind: .payload, version: 1) }
        var wrongCount = body
        wrongCount[2] = 1
        expectWireError(.inconsistentPacket) { try decoder.decode(wrongCount, kind: .payload, version: 1) }
        expectWireError(.unknownKey) { try PacketDecoder(keyring: Keyring([])).decode(body, kind: .payload, version: 1) }
        expectWireError(.inconsistentPacket) { try decoder.decode(body, kind: nil, version: 1) }
    }

    @Test func invalidPacketsAreRefusedBeforeEncoding() {
        expectWireError(.emptyBatch) { try WireFormat.v1(cipher).encode(Packet(kind: .meta, metaLines: [])) }
        expectWireError(.invalidMetaLine) { try WireFormat.v1(cipher).encode(Packet(kind: .meta, metaLines: [Array("{}\n{}".utf8)])) }
        expectWireError(.payloadCountMismatch) {
            try WireFormat.v1(cipher).encode(Packet(kind: .payload, metaLines: sampleMetaLines(2), payloads: [[1]]))
        }
        expectWireError(.payloadCountMismatch) {
            try WireFormat.v1(cipher).encode(Packet(kind: .meta, metaLines: sampleMetaLines(1), payloads: [[1]]))
        }
    }
}
