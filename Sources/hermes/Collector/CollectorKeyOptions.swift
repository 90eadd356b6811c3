import ArgumentParser
import HermesCollector
import HermesHarness
import HermesWire

/// The decryption keys of `hermes collector serve`, turned into a `Keyring`.
struct CollectorKeyOptions: ParsableArguments {
    @Option(name: .customLong("v1-key"), help: "The v1 (AES-128-CBC) key: 32 hex digits. Needs --v1-iv.")
    var v1Key: String?

    @Option(name: .customLong("v1-iv"), help: "The v1 (AES-128-CBC) IV: 32 hex digits. Needs --v1-key.")
    var v1IV: String?

    @Option(name: .customLong("aes-key"), help: "A v2 AES-GCM key as <key id>:<32, 48 or 64 hex digits>. Repeatable.")
    var aesKeys: [String] = []

    @Option(name: .customLong("hpke-private-key"), help: "A v2 HPKE X25519 private key as <key id>:<64 hex digits>. Repeatable.")
    var hpkePrivateKeys: [String] = []

    @Option(name: .customLong("aes-key-file"), help: "A file holding --aes-key values, one per line (kept out of ps). Repeatable.")
    var aesKeyFiles: [String] = []

    @Option(name: .customLong("hpke-private-key-file"), help: "A file holding --hpke-private-key values, one per line (kept out of ps). Repeatable.")
    var hpkePrivateKeyFiles: [String] = []

    /// Whether any key is given (a key, a v1 key or IV, or a key file).
    var hasKey: Bool {
        v1Key != nil || v1IV != nil || !aesKeys.isEmpty || !hpkePrivateKeys.isEmpty || !aesKeyFiles.isEmpty || !hpkePrivateKeyFiles.isEmpty
    }

    /// The keyring the options describe.
    /// - Throws: `ValidationError` naming the option that is malformed, or saying no key was given.
    func keyring() throws -> Keyring {
        let v1: (key: [UInt8], iv: [UInt8])?
        switch (v1Key, v1IV) {
        case (nil, nil):
            v1 = nil
        case (let key?, let iv?):
            v1 = (try Self.hex(key, "--v1-key", digits: [32]), try Self.hex(iv, "--v1-iv", digits: [32]))
        default:
            throw ValidationError("--v1-key and --v1-iv go together: give both or neither.")
        }
        let aesEntries: [String]
        let hpkeEntries: [String]
        do {
            aesEntries = try aesKeys + aesKeyFiles.flatMap { try SecretFile.lines($0, for: "--aes-key-file") }
            hpkeEntries = try hpkePrivateKeys + hpkePrivateKeyFiles.flatMap { try SecretFile.lines($0, for: "--hpke-private-key-file") }
        } catch let error as SettingsError {
            throw ValidationError(error.message)
        }
        let aes = try aesEntries.map { try Self.identified($0, "--aes-key", digits: [32, 48, 64]) }
        let hpke = try hpkeEntries.map { try Self.identified($0, "--hpke-private-key", digits: [64]) }
        var ciphers: [any PacketCipher] = []
        do throws(HermesWireError) {
            if let v1 { ciphers.append(try AESCBCCipher(key: v1.key, iv: v1.iv)) }
            for (keyID, key) in aes { ciphers.append(try AESGCMCipher(key: key, keyID: keyID)) }
            for (keyID, key) in hpke { ciphers.append(try HPKECipher(privateRawKey: key, keyID: keyID)) }
        } catch {
            throw ValidationError(error.message)
        }
        guard !ciphers.isEmpty else {
            throw ValidationError("Give at least one decryption key: --v1-key with --v1-iv, --aes-key(-file) or --hpke-private-key(-file).")
        }
        return Keyring(ciphers)
    }

    /// Reads `<key id>:<hex key>`.
    private static func identified(_ option: String, _ name: String, digits: [Int]) throws -> (UInt32, [UInt8]) {
        let parts = option.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let keyID = UInt32(parts[0]) else {
            throw ValidationError("\(name) must look like <key id>:<hex key>, with a key id from 0 to \(UInt32.max).")
        }
        return (keyID, try hex(String(parts[1]), name, digits: digits))
    }

    /// Bytes from hex, checking the number of digits; the message never repeats the key.
    private static func hex(_ text: String, _ name: String, digits: [Int]) throws -> [UInt8] {
        guard let bytes = Hex.bytes(text), digits.contains(text.utf8.count) else {
            let sizes =
                digits.count == 1
                ? "\(digits[0])"
                : digits.dropLast().map(String.init).joined(separator: ", ") + " or \(digits[digits.count - 1])"
            throw ValidationError("\(name) must be \(sizes) hexadecimal digits.")
        }
        return bytes
    }
}
