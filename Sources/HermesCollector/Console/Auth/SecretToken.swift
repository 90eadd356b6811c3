import Crypto

/// The console's random secrets (session and CSRF tokens) and their hashes.
enum SecretToken {
    /// 32 random bytes from the system's secure generator, as 64 hex digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The SHA-256 of `token`, as 64 hex digits: what the store keeps instead of a session token.
    static func hash(_ token: String) -> String {
        hex(Array(SHA256.hash(data: Array(token.utf8))))
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
