import Crypto
import HermesWire
import Testing

struct PacketV2Tests {
    let gcm = try! AESGCMCipher(key: Array(repeating: 3, count: 32), keyID: 0x0102_0304)
    let serverKey = Curve25519.KeyAgreement.PrivateKey()
    var decoder: PacketDecoder { PacketDecoder(keyring: Keyring([gcm, HPKECipher(privateKey: serverKey, keyID: 5)])) }

    @Test func theHeaderIsLaidOutAsDocumented() throws {
        let packet = Packet(kind: .payload, metaLines: sampleMetaLines(2), payloads: [Array("stack".utf8), []])
        let body = try WireFormat.v2(gcm).encode(packet)

        #expect(Array(body[0..<4]) == Array("HERM".utf8))
        #expect(Array(body[4..<12]) == [2, 2, 2, 0, 0x01, 0x02, 0x03, 0x04])
        #expect(Array(body[12..<14]) == [0, 2])
        let metaLength = body[14..<18].reduce(0) { $0 << 8 | Int($1) }
        let firstLength = body[18..<22].reduce(0) { $0 << 8 | Int($1) }
        #expect(Array(body[22..<26]) == [0, 0, 0, 0])
        #expect(26 + metaLength + firstLength == body.count)
        #expect(firstLength == 12 + (try Gzip.compress(packet.payloads[0])).count + 16)
    }

    @Test(arguments: [PacketKind.meta, .payload])
    func roundTripsWithAESGCM(kind: PacketKind) throws {
        let lines = sampleMetaLines(5)
        let packet = Packet(
            kind: kind, metaLines: lines, payloads: kind == .payload ? [[1], [], [3, 3], [], Array(repeating: 9, count: 5_000)] : [])
        let decoded = try decoder.decode(WireFormat.v2(gcm).encode(packet), kind: kind)
        #expect(decoded.packet == packet)
        #expect(decoded.version == 2 && decoded.algorithm == .aesGCM && decoded.keyID == 0x0102_0304)
    }

    @Test func roundTripsWithHPKEFromThePublicKeyOnly() throws {
        let app = HPKECipher(recipient: serverKey.publicKey, keyID: 5)
        let packet = Packet(kind: .payload, metaLines: sampleMetaLines(2), payloads: [[7, 7], [8]])
        let decoded = try decoder.decode(WireFormat.v2(app).encode(packet), kind: .payload, version: 2)
        #expect(decoded.packet == packet)
        #expect(decoded.algorithm == .hpke && decoded.keyID == 5)
    }

    @Test func thePacketVersionIsToldByTheMagic() throws {
        let v2 = try WireFormat.v2(gcm).encode(Packet(kind: .meta, metaLines: sampleMetaLines(1)))
        #expect(PacketDecoder.version(of: v2) == 2)
        #expect(PacketDecoder.version(of: [0, 1, 2, 3]) == 1)
    }

    @Test func headerProblemsAreTypedErrors() throws {
        let body = try WireFormat.v2(gcm).encode(Packet(kind: .meta, metaLines: sampleMetaLines(1)))
        func altered(_ offset: Int, _ value: UInt8) -> [UInt8] {
            var copy = body
            copy[offset] = value
            return copy
        }
        expectWireError(.badMagic) { try decoder.decode(altered(0, 0x41), kind: .meta, version: 2) }
        expectWireError(.unsupportedVersion) { try decoder.decode(altered(4, 3), kind: .meta, version: 2) }
        expectWireError(.inconsistentPacket) { try decoder.decode(altered(5, 9), kind: .meta) }
        expectWireError(.inconsistentPacket) { try decoder.decode(body, kind: .payload) }
        expectWireError(.unsupportedCipher) { try decoder.decode(altered(6, 1), kind: .meta) }
        expectWireError(.unsupportedCipher) { try decoder.decode(altered(6, 77), kind: .meta) }
        expectWireError(.inconsistentPacket) { try decoder.decode(altered(7, 1), kind: .meta) }
        expectWireError(.unknownKey) { try decoder.decode(altered(11, 9), kind: .meta) }
        expectWireError(.inconsistentPacket) { try decoder.decode(altered(13, 1), kind: .meta) }
        expectWireError(.truncatedPacket) { try decoder.decode(Array(body.prefix(17)), kind: .meta) }
        expectWireError(.unsupportedVersion) { try decoder.decode(body, kind: .meta, version: 7) }
    }

    @Test func blocksCannotBeSwapped() throws {
        let packet = Packet(kind: .payload, metaLines: sampleMetaLines(2), payloads: [Array("aaaa".utf8), Array("bbbb".utf8)])
        let body = try WireFormat.v2(gcm).encode(packet)
        let headerLength = 18 + 8
        let metaLength = body[14..<18].reduce(0) { $0 << 8 | Int($1) }
        let blockLength = body[18..<22].reduce(0) { $0 << 8 | Int($1) }
        let start = headerLength + metaLength
        let swapped = Array(body[..<start]) + Array(body[(start + blockLength)...]) + Array(body[start..<(start + blockLength)])
        expectWireError(.authenticationFailed) { try decoder.decode(swapped, kind: .payload) }
    }

    @Test func aV1CipherCannotMakeAV2Packet() throws {
        let cbc = try AESCBCCipher(key: Array(repeating: 1, count: 16), iv: Array(repeating: 1, count: 16))
        expectWireError(.unsupportedCipher) { try WireFormat.v2(cbc).encode(Packet(kind: .meta, metaLines: sampleMetaLines(1))) }
    }

    @Test func aDecompressionBombIsBoundedByTheLimit() throws {
        let bomb = Packet(kind: .meta, metaLines: [Array(repeating: UInt8(ascii: "a"), count: 2 << 20)])
        let body = try WireFormat.v2(gcm).encode(bomb)
        #expect(body.count < 10_000)
        let strict = PacketDecoder(keyring: Keyring([gcm]), maximumBlockBytes: 1 << 20)
        expectWireError(.outputTooLarge) { try strict.decode(body, kind: .meta) }
    }
}
