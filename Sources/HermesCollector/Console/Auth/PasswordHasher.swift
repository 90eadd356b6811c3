import Dispatch
import HummingbirdBcrypt

/// Console passwords as bcrypt hashes. A hash takes a noticeable time on purpose (a quarter of a
/// second at cost 12), so it runs on a Dispatch queue, never on the threads Swift concurrency and
/// the server's requests share.
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
        return await offThePool { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches a bcrypt hash.
    static func verify(_ password: String, hash: String) async -> Bool {
        await offThePool { Bcrypt.verify(password, hash: hash) }
    }

    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
