import Foundation
import HermesWire
import Testing

/// Fixed inputs → exact bytes, from `Vectors/vectors.json` (also the worked examples of
/// `docs/wire-format.md`). To re-record after a deliberate format change:
/// `HERMES_RECORD_VECTORS=1 swift test --filter TestVectorTests`, then review the diff.
struct TestVectorTests {
    struct Vector: Codable, Sendable, CustomTestStringConvertible {
        var name: String
        var format: String  // "gzip", "v1", "v2-aesgcm"
        var key: String?
        var iv: String?
        var keyID: UInt32?
        var kind: String?
        var metaLines: [String]
        var payloads: [String]?
        var output: String
        var testDescription: String { name }

        var packet: Packet {
            Packet(
                kind: kind == "payload" ? .payload : .meta,
                metaLines: metaLines.map { Array($0.utf8) },
                payloads: (payloads ?? []).map { Array($0.utf8) }
            )
        }

        /// The cipher, with AES-GCM nonces counting from 1 (`00000000 0000000000000001`, …).
        func wireFormat() throws -> WireFormat {
            let key = try #require(key.flatMap { [UInt8](hex: $0) })
            if format == "v1" {
                return .v1(try AESCBCCipher(key: key, iv: try #require(iv.flatMap { [UInt8](hex: $0) })))
            }
            return .v2(try AESGCMCipher(key: key, keyID: keyID ?? 0, nonces: CountingNonceGenerator()))
        }

        func encode() throws -> [UInt8] {
            if format == "gzip" { return try Gzip.compress(Array(metaLines.joined(separator: "\n").utf8)) }
            return try wireFormat().encode(packet)
        }
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/vectors.json")

    static let vectors: [Vector] = {
        guard let data = try? Data(contentsOf: file), let vectors = try? JSONDecoder().decode([Vector].self, from: data) else {
            return []
        }
        return vectors
    }()

    @Test func theVectorFileHasEveryFormat() {
        #expect(Set(Self.vectors.map(\.format)) == ["gzip", "v1", "v2-aesgcm"])
        #expect(Self.vectors.count >= 5)
    }

    @Test(arguments: vectors)
    func encodingGivesTheExactBytes(vector: Vector) throws {
        let output = try vector.encode()
        if ProcessInfo.processInfo.environment["HERMES_RECORD_VECTORS"] != nil {
            try Self.record(vector.name, output: output)
            return
        }
        #expect(output.hex == vector.output)
    }

    @Test(arguments: vectors.filter { $0.format != "gzip" })
    func decodingGivesBackTheRecords(vector: Vector) throws {
        let format = try vector.wireFormat()
        let keyring: Keyring
        switch format {
        case .v1(let cipher): keyring = Keyring([cipher])
        case .v2(let cipher): keyring = Keyring([cipher])
        }
        let bytes = try #require([UInt8](hex: vector.output))
        let decoded = try PacketDecoder(keyring: keyring).decode(bytes, kind: vector.packet.kind, version: format.version)
        #expect(decoded.packet == vector.packet)
    }

    /// An independent implementation (Python's `cryptography` and `zlib`) reads our v2 packets.
    @Test(arguments: vectors.filter { $0.format == "v2-aesgcm" })
    func anIndependentDecoderReadsV2(vector: Vector) throws {
        let script = Self.file.deletingLastPathComponent().appendingPathComponent("decode_v2.py").path
        guard let result = try runTool("python3", [script, try #require(vector.key)], input: try #require([UInt8](hex: vector.output))) else {
            print("skipped: python3 is not installed")
            return
        }
        if result.status == 3 {
            print("skipped: python3 has no 'cryptography' package")
            return
        }
        #expect(result.status == 0)
        var expected = vector.metaLines.joined(separator: "\n") + "\n"
        for payload in vector.payloads ?? [] { expected += "payload:\(payload)\n" }
        #expect(String(decoding: result.output, as: UTF8.self) == expected)
    }

    private static let recordLock = NSLock()

    /// Writes `output` into the vector file for the vector named `name`.
    private static func record(_ name: String, output: [UInt8]) throws {
        recordLock.lock()
        defer { recordLock.unlock() }
        var vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: file))
        for index in vectors.indices where vectors[index].name == name {
            vectors[index].output = output.hex
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(vectors).write(to: file)
    }
}
