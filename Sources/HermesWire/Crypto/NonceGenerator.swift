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

    public func nextNonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
