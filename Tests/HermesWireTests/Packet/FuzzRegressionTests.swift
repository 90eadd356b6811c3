import Foundation
import HermesWire
import Testing

/// The fuzzer's inputs as tests (`Fuzz/`, run by `bash Fuzz/run.sh`).
///
/// An input that once made the fuzzer fail is kept in `Vectors/fuzz-regressions/` as the fuzzer
/// read it: a selector byte, then the data (`FuzzTarget` in `Fuzz/Sources/HermesFuzz/FuzzTarget.swift`).
/// `Fuzz/run.sh` adds them to the corpus. Each must be rejected with a thrown ``HermesWireError``,
/// not a trap. The test vectors,
/// framed the same way, must decode, which keeps ``decode(_:)`` reading inputs as the harness does.
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/fuzz-regressions")

    static let regressions: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The harness's keys: those of the test vectors, and an HPKE key.
    static let v1Cipher = try! AESCBCCipher(key: Array(0x00...0x0F), iv: Array(0x10...0x1F))
    static let decoder = PacketDecoder(
        keyring: Keyring([
            v1Cipher,
            try! AESGCMCipher(key: Array(0x00...0x0F), keyID: 7),
            try! HPKECipher(privateRawKey: Array(0x20...0x3F), keyID: 7),
        ]))

    /// Reads `input` as the harness's target for its first byte does, meta lines included as the
    /// collector parses them.
    /// - Throws: what the decoders throw; for an empty input, which the harness skips, `emptyBatch`.
    static func decode(_ input: [UInt8]) throws(HermesWireError) {
        guard let selector = input.first else { throw HermesWireError(.emptyBatch, "no selector byte") }
        let data = Array(input.dropFirst())
        let packet: DecodedPacket
        switch selector % 11 {
        case 0: packet = try decoder.decode(data, kind: .meta, version: 1)
        case 1: packet = try decoder.decode(data, kind: .payload, version: 1)
        case 2: packet = try decoder.decode(data, kind: .meta, version: 2)
        case 3: packet = try decoder.decode(data, kind: .payload, version: 2)
        case 4: packet = try decoder.decode(data, kind: nil)
        case 5:
            _ = try ConfigurationDocument(jsonBytes: ConfigurationDocument(jsonBytes: data).jsonBytes())
            return
        case 6: packet = try decoder.decode(v1Cipher.seal(data, authenticating: []), kind: .meta, version: 1)
        case 7: packet = try decoder.decode(v1Cipher.seal(Gzip.compress(data), authenticating: []), kind: .meta, version: 1)
        case 8:
            packet = try decoder.decode(
                data, kind: .payload, version: 2, limits: PacketLimits(blockBytes: 64 << 10, packetBytes: 128 << 10, records: 8))
        case 9:
            _ = try SyncRequest(jsonBytes: SyncRequest(jsonBytes: data).jsonBytes())
            return
        default:
            if case .rejected(_, let error) = RecordCheck.check(metaLine: data, namespace: "JZ") { throw error }
            return
        }
        for line in packet.packet.metaLines {
            _ = try JSONValue(parsing: line)
        }
    }

    @Test(arguments: regressions)
    func aCrashingInputIsRejected(file: String) throws {
        let input = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(file)))
        #expect(throws: HermesWireError.self) { try Self.decode(input) }
    }

    /// The seeds of `Fuzz/seed_corpus.py`: every vector under its packet target (v2 also under
    /// the version sniffing target) and its meta lines under the sealed meta block target; the
    /// gzip vector under the sealed gzip target.
    @Test(arguments: TestVectorTests.vectors)
    func aTestVectorFramedForTheFuzzerDecodes(vector: TestVectorTests.Vector) throws {
        let body = try #require([UInt8](hex: vector.output))
        let metaBlock = Array(vector.metaLines.joined(separator: "\n").utf8)
        var inputs = [[7] + metaBlock]
        switch (vector.format, vector.kind) {
        case ("gzip", _): inputs.append([6] + body)
        case ("v1", "meta"): inputs.append([0] + body)
        case ("v1", _): inputs.append([1] + body)
        case (_, "meta"): inputs += [[2] + body, [4] + body]
        default: inputs += [[3] + body, [4] + body]
        }
        for input in inputs {
            try Self.decode(input)
        }
        // v1 bodies do not say their kind, so version sniffing alone cannot read them.
        if vector.format == "v1" {
            #expect(throws: HermesWireError.self) { try Self.decode([4] + body) }
        }
    }

    @Test(arguments: ["{}", String(decoding: ConfigurationDocument.builtIn.jsonBytes(), as: UTF8.self)])
    func aConfigurationFramedForTheFuzzerDecodes(json: String) throws {
        try Self.decode([5] + Array(json.utf8))
    }
}
