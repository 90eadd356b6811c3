/// AES-128-CBC with PKCS#7 padding under a fixed key and IV: the legacy v1 cipher.
///
/// Kept exact for servers that read v1. It does not authenticate: use ``AESGCMCipher`` or
/// ``HPKECipher`` with v2 where you can.
///
/// ```swift
/// let cipher = try AESCBCCipher(key: key16, iv: iv16)
/// ```
public struct AESCBCCipher: PacketCipher {
    public var algorithm: CipherAlgorithm { .aes128CBC }
    public let keyID: UInt32
    private let key: [UInt8]
    private let iv: [UInt8]

    /// Creates the v1 cipher.
    /// - Parameters:
    ///   - key: 16 bytes.
    ///   - iv: 16 bytes.
    ///   - keyID: an id for key rotation; v1 packets do not carry it.
    /// - Throws: ``HermesWireError/Code/invalidKey`` for a key or IV of the wrong size.
    public init(key: [UInt8], iv: [UInt8], keyID: UInt32 = 0) throws(HermesWireError) {
        guard key.count == 16 else { throw HermesWireError(.invalidKey, "AES-128-CBC needs a 16-byte key, got \(key.count) bytes") }
        guard iv.count == 16 else { throw HermesWireError(.invalidKey, "AES-128-CBC needs a 16-byte IV, got \(iv.count) bytes") }
        self.key = key
        self.iv = iv
        self.keyID = keyID
    }

    public func seal(_ plaintext: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        try AESBlock.cbc(plaintext, key: key, iv: iv, encrypt: true)
    }

    public func open(_ sealed: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        guard !sealed.isEmpty, sealed.count % 16 == 0 else {
            throw HermesWireError(.decryptionFailed, "AES-128-CBC input must be a non-empty multiple of 16 bytes, got \(sealed.count)")
        }
        do {
            return try AESBlock.cbc(sealed, key: key, iv: iv, encrypt: false)
        } catch {
            throw HermesWireError(.decryptionFailed, "AES-128-CBC decryption failed: wrong key or IV, or corrupt data")
        }
    }
}
