internal import Crypto

/// AES-GCM with a fresh 96-bit nonce per block: v2's cipher for a shared symmetric key.
///
/// A sealed block is `nonce (12) ‖ ciphertext ‖ tag (16)`; the packet header is authenticated.
///
/// ```swift
/// let cipher = try AESGCMCipher(key: key32, keyID: 7)
/// ```
public struct AESGCMCipher: PacketCipher {
    public var algorithm: CipherAlgorithm { .aesGCM }
    public let keyID: UInt32
    private let key: SymmetricKey
    private let nonces: any NonceGenerator

    /// Creates an AES-GCM cipher.
    /// - Parameters:
    ///   - key: 16, 24 or 32 bytes.
    ///   - keyID: the id the collector looks the key up by.
    ///   - nonces: where nonces come from; the default is the system's secure random generator.
    /// - Throws: ``HermesWireError/Code/invalidKey`` for a key of the wrong size.
    public init(key: [UInt8], keyID: UInt32, nonces: any NonceGenerator = SystemNonceGenerator()) throws(HermesWireError) {
        guard [16, 24, 32].contains(key.count) else {
            throw HermesWireError(.invalidKey, "AES-GCM needs a 16, 24 or 32-byte key, got \(key.count) bytes")
        }
        self.key = SymmetricKey(data: key)
        self.keyID = keyID
        self.nonces = nonces
    }

    public func seal(_ plaintext: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        do {
            let nonce = try AES.GCM.Nonce(data: nonces.nextNonce())
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: header)
            guard let combined = box.combined else { throw HermesWireError(.encryptionFailed, "AES-GCM produced no combined box") }
            return Array(combined)
        } catch {
            throw HermesWireError(.encryptionFailed, "AES-GCM encryption failed")
        }
    }

    public func open(_ sealed: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        guard sealed.count >= 28 else {
            throw HermesWireError(.authenticationFailed, "AES-GCM block is shorter than its nonce and tag")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return Array(try AES.GCM.open(box, using: key, authenticating: header))
        } catch {
            throw HermesWireError(.authenticationFailed, "AES-GCM authentication failed: wrong key, or the packet was altered")
        }
    }
}
