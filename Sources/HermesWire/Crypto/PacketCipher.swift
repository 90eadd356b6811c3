/// A cipher that seals and opens the blocks of a packet.
///
/// Implementations: ``AESCBCCipher`` (v1, not authenticated), ``AESGCMCipher`` and
/// ``HPKECipher`` (v2, authenticated).
///
/// Contract for implementers:
/// - `seal` output must be opened by `open` of a cipher with the same key, algorithm and key id.
/// - Authenticated ciphers bind `header` to the block: `open` with any other header bytes fails
///   with ``HermesWireError/Code/authenticationFailed``. Unauthenticated ciphers ignore it.
/// - Neither method traps on any input, and errors never carry key or plaintext bytes.
public protocol PacketCipher: Sendable {
    /// Which algorithm this is, as written in a v2 header.
    var algorithm: CipherAlgorithm { get }
    /// Which key this is, so servers can rotate keys (written in a v2 header).
    var keyID: UInt32 { get }
    /// Encrypts one block.
    /// - Parameters:
    ///   - plaintext: the block's bytes (already compressed).
    ///   - header: bytes to authenticate with the block (authenticated ciphers only).
    /// - Returns: the sealed block, self-contained (nonce or encapsulated key included).
    func seal(_ plaintext: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8]
    /// Decrypts one block sealed by ``seal(_:authenticating:)``.
    /// - Parameters:
    ///   - sealed: the sealed block.
    ///   - header: the same bytes that were authenticated when sealing.
    /// - Returns: the plaintext.
    func open(_ sealed: [UInt8], authenticating header: [UInt8]) throws(HermesWireError) -> [UInt8]
}

/// The cipher algorithms Hermes knows, with their id in a v2 header.
public enum CipherAlgorithm: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// AES-128-CBC with PKCS#7 padding and a fixed IV: the v1 cipher. Not authenticated.
    case aes128CBC = 1
    /// AES-GCM with a fresh 96-bit nonce per block and a 128-bit tag.
    case aesGCM = 2
    /// HPKE (RFC 9180): DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode.
    case hpke = 3

    /// Whether the algorithm detects any change to a block or its header.
    public var isAuthenticated: Bool { self != .aes128CBC }

    public var description: String {
        switch self {
        case .aes128CBC: "aes-128-cbc"
        case .aesGCM: "aes-gcm"
        case .hpke: "hpke-x25519-sha256-aes128gcm"
        }
    }
}
