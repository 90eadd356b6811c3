/// A signed-in console session, as the store keeps it: the token itself is never stored, only
/// its SHA-256.
public struct ConsoleSession: Sendable, Hashable {
    /// The SHA-256 of the session token, in hex.
    public var tokenHash: String
    /// Who signed in.
    public var userName: String
    /// The user's role now (read with the session, so a changed role applies at once).
    public var role: ConsoleRole
    /// The token every state-changing request carries in `X-CSRF-Token`.
    public var csrfToken: String
    /// When the session ends, in milliseconds since 1970.
    public var expiresAt: Int64

    /// Creates a session record.
    public init(tokenHash: String, userName: String, role: ConsoleRole, csrfToken: String, expiresAt: Int64) {
        self.tokenHash = tokenHash
        self.userName = userName
        self.role = role
        self.csrfToken = csrfToken
        self.expiresAt = expiresAt
    }
}
