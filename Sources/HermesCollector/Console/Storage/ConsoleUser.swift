/// A person who signs in to the console.
public struct ConsoleUser: Sendable, Hashable {
    /// The sign-in name: 1 to 64 letters, digits, `.`, `_`, `-` or `@`.
    public var name: String
    /// What the user may do.
    public var role: ConsoleRole
    /// The password's bcrypt hash (never the password).
    public var passwordHash: String
    /// When the user was made, in milliseconds since 1970.
    public var createdAt: Int64

    /// Creates a user record.
    public init(name: String, role: ConsoleRole, passwordHash: String, createdAt: Int64) {
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }

    /// Checks a sign-in name.
    /// - Throws: ``CollectorError/Code/invalidQuery`` naming what is wrong.
    public static func validate(name: String) throws(CollectorError) {
        guard name.isConsoleName(allowing: ".-_@") else {
            throw CollectorError(.invalidQuery, "a user name is 1 to 64 letters, digits, '.', '_', '-' or '@'")
        }
    }
}
