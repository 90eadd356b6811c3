import Crypto
import HermesWire
import Testing

/// Seeded random damage to valid packets: decoders must never trap, and v2 (authenticated)
/// must reject every altered packet.
struct PacketFuzzTests {
    static let cbc = try! AESCBCCipher(key: Array(repeating: 4, count: 16), iv: Array(repeating: 6, count: 16))
    static let gcm = try! AESGCMCipher(key: Array(repeating: 8, count: 16), keyID: 3)
    static let serverKey = Curve25519.KeyAgreement.PrivateKey()
    static let decoder = PacketDecoder(
        keyring: Keyring([cbc, gcm, HPKECipher(privateKey: serverKey, keyID: 4)]),
        maximumBlockBytes: 1 << 20
    )

    struct Subject: Sendable, CustomTestStringConvertible {
        var name: String
        var format: WireFormat
        var kind: PacketKind
        var authenticated: Bool
        var testDescription: String { name }

        var body: [UInt8] {
            let lines = sampleMetaLines(4)
            let payloads: [[UInt8]] = kind == .payload ? [Array("stack 0".utf8), [], Array(repeating: 0xAB, count: 300), [1]] : []
            return try! format.encode(Packet(kind: kind, metaLines: lines, payloads: payloads))
        }
    }

    static let subjects: [Subject] = [
        Subject(name: "v1 meta", format: .v1(cbc), kind: .meta, authenticated: false),
        Subject(name: "v1 payload", format: .v1(cbc), kind: .payload, authenticated: false),
        Subject(name: "v2 AES-GCM meta", format: .v2(gcm), kind: .meta, authenticated: true),
        Subject(name: "v2 AES-GCM payload", format: .v2(gcm), kind: .payload, authenticated: true),
        Subject(name: "v2 HPKE payload", format: .v2(HPKECipher(recipient: serverKey.publicKey, keyID: 4)), kind: .payload, authenticated: true),
    ]

    @Test(arguments: subjects)
    func everyTruncationIsRejected(subject: Subject) {
        let body = subject.body
        let version = subject.format.version
        var random = SplitMix64(seed: 0x7121)
        for round in 0..<600 {
            let length = round < body.count ? round : Int(random.next() % UInt64(body.count))
            #expect(throws: HermesWireError.self, "cut at \(length)") {
                try Self.decoder.decode(Array(body.prefix(length)), kind: subject.kind, version: version)
            }
        }
    }

    @Test(arguments: subjects)
    func bitFlipsNeverTrapAndAreAlwaysRejectedWhenAuthenticated(subject: Subject) {
        let body = subject.body
        let version = subject.format.version
        var random = SplitMix64(seed: 0xF11B)
        for _ in 0..<600 {
            var damaged = body
            for _ in 0...(random.next() % 3) {
                let bit = Int(random.next() % UInt64(body.count * 8))
                damaged[bit / 8] ^= 1 << (bit % 8)
            }
            let result = Result { try Self.decoder.decode(damaged, kind: subject.kind, version: version) }
            if subject.authenticated {
                #expect(throws: HermesWireError.self) { try result.get() }
            } else if case .failure(let error) = result {
                #expect(error is HermesWireError)
            }
        }
    }

    @Test func randomBytesNeverTrap() {
        var random = SplitMix64(seed: 99)
        for _ in 0..<2_000 {
            let count = Int(random.next() % 200)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if random.next() % 2 == 0 { bytes = Array("HERM".utf8) + [2] + bytes }
            for kind in PacketKind.allCases {
                #expect(throws: HermesWireError.self) { try Self.decoder.decode(bytes, kind: kind) }
            }
        }
    }
}
