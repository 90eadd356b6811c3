import Crypto

/// The console's random secrets (session and CSRF tokens) and their hashes.
enum SecretToken {
    /// 32 random bytes from the system's secure generator, as 64 hex digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.random(bytes: 32, using: &generator)
    }

    /// The SHA-256 of `token`, as 64 hex digits: what the store keeps instead of a session token.
    static func hash(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Array(token.utf8)))
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    static func equal(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        equal(lhs.utf8, rhs.utf8)
    }
}
