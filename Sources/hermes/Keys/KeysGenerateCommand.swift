import ArgumentParser
import Crypto
import Foundation
import HermesHarness

/// `hermes keys generate --hpke | --aes-gcm | --v1 | --token [--output FILE]`: new random key
/// material, printed with the matching `collector serve` options and the SDK's line, or its
/// collector part written to a file the collector reads as it is.
struct KeysGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Make a new key or token, with the collector options and the SDK line that use it.",
        discussion: """
            --hpke: the collector keeps the private key, apps get only the public one (recommended).
            --aes-gcm: one secret key shared by the collector and the apps.
            --v1: the AES-128-CBC key and IV of v1 packets (older apps only).
            --token: an app key or admin token (--app-key-file, --admin-token-file).
            With --output FILE the collector's part goes to FILE (created with mode 0600, never
            overwritten) and only the option naming FILE and the SDK line are printed; otherwise
            the output holds secrets: redirect it to a file only you can read.
            """
    )

    enum Kind: String, EnumerableFlag {
        case hpke, aesGCM, v1, token

        static func name(for value: Kind) -> NameSpecification {
            switch value {
            case .hpke: .customLong("hpke")
            case .aesGCM: .customLong("aes-gcm")
            case .v1: .customLong("v1")
            case .token: .customLong("token")
            }
        }
    }

    @Flag(help: "The kind of key (required).")
    var kind: Kind

    @Option(name: .customLong("key-id"), help: "The key id packets will name (v2 only; pick one the collector does not use yet).")
    var keyID: UInt32 = 1

    @Option(help: "Write the collector's part to this new file (mode 0600) and print the option that reads it.")
    var output: String?

    func validate() throws {
        if output != nil, kind == .v1 {
            throw ValidationError("--output does not apply to --v1: the collector takes the key and IV as --v1-key and --v1-iv.")
        }
    }

    func run() throws {
        let material = Self.material(kind, keyID: keyID, random: Hex.randomBytes)
        guard let output else {
            print(material.text)
            return
        }
        try Self.writeSecret(material.fileEntry + "\n", to: output)
        print(material.text(writtenTo: output))
    }

    /// What `generate` makes for `kind`, with key bytes from `random`.
    static func material(_ kind: Kind, keyID: UInt32, random: (Int) -> [UInt8]) -> KeyMaterial {
        switch kind {
        case .hpke:
            let privateKey = random(32)
            // Any 32 bytes are an X25519 private key: the unwrap cannot fail.
            let publicKey = try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey).publicKey.rawRepresentation
            return KeyMaterial(
                title: "# HPKE (X25519) key \(keyID). The private key stays with the collectors.",
                option: "--hpke-private-key", fileOption: "--hpke-private-key-file", fileEntry: "\(keyID):\(Hex.string(privateKey))",
                sdk: "wireFormat: .v2(try HPKECipher(recipientRawKey: \(swiftBytes(Array(publicKey))), keyID: \(keyID)))"
            )
        case .aesGCM:
            let key = random(16)
            return KeyMaterial(
                title: "# AES-GCM key \(keyID). Secret on both sides: anyone with it can read and forge packets.",
                option: "--aes-key", fileOption: "--aes-key-file", fileEntry: "\(keyID):\(Hex.string(key))",
                sdk: "wireFormat: .v2(try AESGCMCipher(key: \(swiftBytes(key)), keyID: \(keyID)))"
            )
        case .v1:
            let key = random(16), iv = random(16)
            return KeyMaterial(
                title: "# v1 (AES-128-CBC) key and IV, for apps that still send v1 packets (key id 0).",
                option: "--v1-key \(Hex.string(key)) --v1-iv", fileOption: nil, fileEntry: Hex.string(iv),
                sdk: "wireFormat: .v1(try AESCBCCipher(key: \(swiftBytes(key)), iv: \(swiftBytes(iv))))"
            )
        case .token:
            let token = Hex.string(random(32))
            return KeyMaterial(
                title: "# A token: an app key (--app-key, --app-key-file) or the admin token (--admin-token, --admin-token-file).",
                option: "--app-key", fileOption: "--app-key-file", fileEntry: token,
                sdk: "credentials: .init(appKey: \"\(token)\", wireFormat: …)"
            )
        }
    }

    /// Creates `path` with `contents`, readable by its owner only.
    /// - Throws: `ValidationError` when the file exists (a key is never overwritten) or cannot be written.
    static func writeSecret(_ contents: String, to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("--output: \(path) exists; a key file is never overwritten.")
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("--output: cannot write \(path).")
        }
    }

    /// `bytes` as a Swift array literal an app can paste.
    static func swiftBytes(_ bytes: [UInt8]) -> String {
        "[" + bytes.map { "0x" + Hex.string([$0]) }.joined(separator: ", ") + "]"
    }
}
