public import Crypto
internal import Foundation

/// HPKE (RFC 9180) sealing to the collector's X25519 public key: v2's cipher that ships no
/// shared secret in the app.
///
/// The app holds only the public key and can seal but not open; the collector holds the
/// private key. Each block gets its own encapsulation: `encapsulated key (32) ‖ ciphertext ‖ tag (16)`.
/// Suite: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM; info `hermes-packet-v2`.
///
/// ```swift
/// let app = HPKECipher(recipient: serverPublicKey, keyID: 3)
/// let collector = HPKECipher(privateKey: serverPrivateKey, keyID: 3)
/// ```
public struct HPKECipher: PacketCipher {
    public var algorithm: CipherAlgorithm { .hpke }
    public let keyID: UInt32
    private let publicKey: Curve25519.KeyAgreement.PublicKey
    private let privateKey: Curve25519.KeyAgreement.PrivateKey?

    static let ciphersuite = HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)
    static let info = Data("hermes-packet-v2".utf8)
    static let encapsulatedKeyLength = 32

    /// A sealing-only cipher for the app.
    /// - Parameters:
    ///   - recipient: the collector's public key.
    ///   - keyID: the id the collector looks its private key up by.
    public init(recipient: Curve25519.KeyAgreement.PublicKey, keyID: UInt32) {
        self.publicKey = recipient
        self.privateKey = nil
        self.keyID = keyID
    }

    /// A sealing-only cipher from the collector's raw 32-byte public key.
    /// - Throws: ``HermesWireError/Code/invalidKey`` if the bytes are not an X25519 public key.
    public init(recipientRawKey: [UInt8], keyID: UInt32) throws(HermesWireError) {
        guard let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: recipientRawKey) else {
            throw HermesWireError(.invalidKey, "HPKE needs a 32-byte X25519 public key, got \(recipientRawKey.count) bytes")
        }
        self.init(recipient: key, keyID: keyID)
    }

    /// A cipher that can open (and seal), for the collector.
    /// - Parameters:
    ///   - privateKey: the collector's private key.
    ///   - keyID: the id the app's packets carry.
    public init(privateKey: Curve25519.KeyAgreement.PrivateKey, keyID: UInt32) {
        self.publicKey = privateKey.publicKey
        self.privateKey = privateKey
        self.keyID = keyID
    }

    public func seal(_ plaintext: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        do {
            var sender = try HPKE.Sender(recipientKey: publicKey, ciphersuite: Self.ciphersuite, info: Self.info)
            let ciphertext = try sender.seal(plaintext, authenticating: header)
            return Array(sender.encapsulatedKey) + Array(ciphertext)
        } catch {
            throw HermesWireError(.encryptionFailed, "HPKE sealing failed")
        }
    }

    public func open(_ sealed: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        guard let privateKey else {
            throw HermesWireError(.invalidKey, "this HPKE cipher holds only a public key and cannot open packets")
        }
        guard sealed.count >= Self.encapsulatedKeyLength + 16 else {
            throw HermesWireError(.authenticationFailed, "HPKE block is shorter than its encapsulated key and tag")
        }
        do {
            let encapsulatedKey = sealed[..<Self.encapsulatedKeyLength]
            var recipient = try HPKE.Recipient(
                privateKey: privateKey, ciphersuite: Self.ciphersuite, info: Self.info,
                encapsulatedKey: Data(encapsulatedKey)
            )
            return Array(try recipient.open(sealed[Self.encapsulatedKeyLength...], authenticating: header))
        } catch {
            throw HermesWireError(.authenticationFailed, "HPKE authentication failed: wrong key, or the packet was altered")
        }
    }
}
