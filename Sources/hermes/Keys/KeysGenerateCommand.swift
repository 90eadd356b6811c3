import ArgumentParser
import Crypto
import HermesHarness

/// `hermes keys generate --hpke | --aes-gcm | --v1`: new random key material, printed with the
/// matching `collector serve` options and the SDK's line.
struct KeysGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print a new key with the collector options and the SDK line that use it.",
        discussion: """
            --hpke: the collector keeps the private key, apps get only the public one (recommended).
            --aes-gcm: one secret key shared by the collector and the apps.
            --v1: the AES-128-CBC key and IV of v1 packets (older apps only).
            The output holds secrets: redirect it to a file only you can read.
            """
    )

    enum Kind: String, EnumerableFlag {
        case hpke, aesGCM, v1

        static func name(for value: Kind) -> NameSpecification {
            switch value {
            case .hpke: .customLong("hpke")
            case .aesGCM: .customLong("aes-gcm")
            case .v1: .customLong("v1")
            }
        }
    }

    @Flag(help: "The kind of key (required).")
    var kind: Kind

    @Option(name: .customLong("key-id"), help: "The key id packets will name (v2 only; pick one the collector does not use yet).")
    var keyID: UInt32 = 1

    func run() {
        print(Self.text(kind, keyID: keyID, random: Hex.randomBytes))
    }

    /// What `generate` prints for `kind`, with key bytes from `random`.
    static func text(_ kind: Kind, keyID: UInt32, random: (Int) -> [UInt8]) -> String {
        switch kind {
        case .hpke:
            let privateKey = random(32)
            // Any 32 bytes are an X25519 private key: the unwrap cannot fail.
            let publicKey = try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey).publicKey.rawRepresentation
            let entry = "\(keyID):\(Hex.string(privateKey))"
            return """
                # HPKE (X25519) key \(keyID). The private key stays with the collectors.
                collector: --hpke-private-key \(entry)
                           (or write \(entry) to a file only the collector can read: --hpke-private-key-file FILE)
                SDK:       wireFormat: .v2(try HPKECipher(recipientRawKey: \(swiftBytes(Array(publicKey))), keyID: \(keyID)))
                """
        case .aesGCM:
            let key = random(16)
            let entry = "\(keyID):\(Hex.string(key))"
            return """
                # AES-GCM key \(keyID). Secret on both sides: anyone with it can read and forge packets.
                collector: --aes-key \(entry)
                           (or write \(entry) to a file only the collector can read: --aes-key-file FILE)
                SDK:       wireFormat: .v2(try AESGCMCipher(key: \(swiftBytes(key)), keyID: \(keyID)))
                """
        case .v1:
            let key = random(16), iv = random(16)
            return """
                # v1 (AES-128-CBC) key and IV, for apps that still send v1 packets (key id 0).
                collector: --v1-key \(Hex.string(key)) --v1-iv \(Hex.string(iv))
                SDK:       wireFormat: .v1(try AESCBCCipher(key: \(swiftBytes(key)), iv: \(swiftBytes(iv))))
                """
        }
    }

    /// `bytes` as a Swift array literal an app can paste.
    static func swiftBytes(_ bytes: [UInt8]) -> String {
        "[" + bytes.map { "0x" + Hex.string([$0]) }.joined(separator: ", ") + "]"
    }
}
