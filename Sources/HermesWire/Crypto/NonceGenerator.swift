/// Where AES-GCM nonces come from. Injected so tests can pin the exact bytes of a packet.
///
/// Contract: every call returns 12 bytes, and a production generator never repeats a nonce
/// under the same key. Only tests may use a predictable generator.
public protocol NonceGenerator: Sendable {
    /// The next 12-byte nonce.
    func nextNonce() -> [UInt8]
}

/// Nonces from the system's cryptographically secure random number generator.
public struct SystemNonceGenerator: NonceGenerator {
    /// Creates the generator.
    public init() {}

    /// Two draws of the generator (eight bytes, then four), not one per byte: each draw is a
    /// system call.
    public func nextNonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var nonce: [UInt8] = []
        nonce.reserveCapacity(12)
        withUnsafeBytes(of: generator.next() as UInt64) { nonce.append(contentsOf: $0) }
        withUnsafeBytes(of: generator.next() as UInt32) { nonce.append(contentsOf: $0) }
        return nonce
    }
}
