import HermesWire
import Testing

/// The bounds a collector decodes a packet within, checked before the work they bound.
struct PacketLimitsTests {
    static let gcm = try! AESGCMCipher(key: Array(repeating: 3, count: 16), keyID: 1)
    static let decoder = PacketDecoder(keyring: Keyring([gcm]))

    static func payloadPacket(slots: Int, zeros: Int) throws -> [UInt8] {
        let lines = (0..<slots).map { Array(#"{"REPORT_ID":"r\#($0)"}"#.utf8) }
        return try WireFormat.v2(gcm).encode(
            Packet(kind: .payload, metaLines: lines, payloads: Array(repeating: Array(repeating: 0, count: zeros), count: slots)))
    }

    @Test func slotsPastTheLimitAreRefusedFromTheHeader() throws {
        let body = try Self.payloadPacket(slots: 5, zeros: 1)
        let limits = PacketLimits(blockBytes: 1 << 20, packetBytes: 1 << 20, records: 4)
        #expect { try Self.decoder.decode(body, kind: .payload, limits: limits) } throws: { ($0 as? HermesWireError)?.code == .tooManyRecords }
        #expect(
            try Self.decoder.decode(body, kind: .payload, limits: PacketLimits(blockBytes: 1 << 20, packetBytes: 1 << 20, records: 5)).packet.payloads
                .count == 5)
    }

    @Test func blocksTogetherPastThePacketLimitStopDecompressing() throws {
        // Given four payloads of 1 MiB of zeros, each within the block limit, 4 MiB together
        let body = try Self.payloadPacket(slots: 4, zeros: 1 << 20)
        let limits = PacketLimits(blockBytes: 2 << 20, packetBytes: 3 << 20, records: 100)
        #expect { try Self.decoder.decode(body, kind: .payload, limits: limits) } throws: { ($0 as? HermesWireError)?.code == .packetTooLarge }
        // And one block past the block limit says so
        let tight = PacketLimits(blockBytes: 1 << 19, packetBytes: 8 << 20, records: 100)
        #expect { try Self.decoder.decode(body, kind: .payload, limits: tight) } throws: { ($0 as? HermesWireError)?.code == .outputTooLarge }
    }

    @Test func aNamespaceGivesTheLimitsTheSDKBuildsItsBatchesBy() {
        let limits = PacketLimits(namespace: NamespaceConfiguration(maxBodyMByte: 1, maxItem: 20))
        #expect(limits.records == 20)
        #expect(limits.packetBytes == (1 << 20) + PacketLimits.framingAllowance)
        #expect(PacketLimits(namespace: .widest).records == 100)
        #expect(NamespaceConfiguration.widest.maxMetaBytes == 64 << 10)
    }

    @Test func aSyncClientIDWithANULIsRefused() {
        let body = Array(#"{"clientID":"ipad\u0000","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#.utf8)
        #expect { try SyncRequest(jsonBytes: body) } throws: { ($0 as? HermesWireError)?.code == .invalidText }
        #expect(CheckedText.problem("ipad", name: "clientID") == nil)
    }
}
