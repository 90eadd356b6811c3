import HummingbirdBcrypt

/// Console passwords as bcrypt hashes, computed off the caller's executor (a hash takes a
/// noticeable time on purpose).
public enum PasswordHasher: Sendable {
    /// The fewest characters a console password may have.
    public static let minimumLength = 10

    /// The bcrypt hash of a password.
    /// - Parameters:
    ///   - password: at least ``minimumLength`` characters.
    ///   - cost: the bcrypt cost (``ConsoleSettings/passwordCost``).
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a password that is too short.
    public static func hash(_ password: String, cost: UInt8) async throws(CollectorError) -> String {
        guard password.count >= minimumLength else {
            throw CollectorError(.invalidQuery, "a console password has at least \(minimumLength) characters")
        }
        return await Task.detached { Bcrypt.hash(password, cost: cost) }.value
    }

    /// Whether `password` matches a bcrypt hash.
    static func verify(_ password: String, hash: String) async -> Bool {
        await Task.detached { Bcrypt.verify(password, hash: hash) }.value
    }
}
