/// The ciphers a collector can open packets with, found by algorithm and key id.
///
/// Keep old keys in the ring while apps still send them; add the new one under a new id.
///
/// ```swift
/// let keyring = Keyring([try AESCBCCipher(key: k, iv: iv), HPKECipher(privateKey: sk, keyID: 2)])
/// ```
public struct Keyring: Sendable {
    private var ciphers: [Key: any PacketCipher] = [:]

    private struct Key: Hashable {
        var algorithm: CipherAlgorithm
        var keyID: UInt32
    }

    /// Creates a keyring; a later cipher with the same algorithm and key id replaces an earlier one.
    public init(_ ciphers: [any PacketCipher]) {
        for cipher in ciphers {
            self.ciphers[Key(algorithm: cipher.algorithm, keyID: cipher.keyID)] = cipher
        }
    }

    /// The keys the ring holds, `<algorithm> <key id>` sorted, never the key material: for an
    /// operator's summary of what a collector can open.
    public var keyNames: [String] {
        ciphers.keys.map { "\($0.algorithm) \($0.keyID)" }.sorted()
    }

    /// The cipher for `algorithm` and `keyID`, or `nil`.
    public func cipher(_ algorithm: CipherAlgorithm, keyID: UInt32) -> (any PacketCipher)? {
        ciphers[Key(algorithm: algorithm, keyID: keyID)]
    }
}
