public import HermesWire

/// A device's sync credential as the store keeps it: the `clientID` it is bound to, the user and
/// roles the schema's access rules see (`SyncAccessRule`), the SHA-256 of its secret, and when
/// it was issued and revoked.
///
/// Issued by `hermes sync devices add` or `POST /v1/admin/sync/devices`; the device sends the
/// secret as `Authorization: Bearer` with its sync requests (see docs/sync.md).
public struct SyncDevice: Sendable, Hashable {
    /// The device's `clientID`: only a request with this credential may use it.
    public var clientID: String
    /// The user the device acts for (owner attributes hold it).
    public var user: String
    /// The roles the schema's `role:` rules ask for.
    public var roles: [String]
    /// The SHA-256 of the secret, as 64 hex digits.
    public var secretHash: String
    /// When it was issued, in milliseconds since 1970.
    public var createdAt: Int64
    /// When it was revoked, or `nil`.
    public var revokedAt: Int64?

    /// A stored credential.
    public init(clientID: String, user: String, roles: [String], secretHash: String, createdAt: Int64, revokedAt: Int64? = nil) {
        self.clientID = clientID
        self.user = user
        self.roles = roles
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// What the access rules see of the device.
    public var identity: SyncIdentity { SyncIdentity(clientID: clientID, user: user, roles: Set(roles)) }

    /// How every device secret begins, so that the collector tells one from an ingest token.
    public static let secretPrefix = "hsd_"

    /// A new credential for `clientID`, and its secret (shown once, never stored).
    /// - Throws: ``CollectorError/Code/invalidQuery`` for an empty or overlong client id or user,
    ///   or a role that is empty or holds a comma.
    public static func issue(clientID: String, user: String, roles: [String], now: Int64) throws(CollectorError) -> (SyncDevice, secret: String) {
        guard (1...200).contains(clientID.utf8.count), (1...200).contains(user.utf8.count) else {
            throw CollectorError(.invalidQuery, "a device needs a client id and a user of 1 to 200 bytes")
        }
        guard roles.allSatisfy({ !$0.isEmpty && !$0.contains(",") }) else {
            throw CollectorError(.invalidQuery, "roles must be non-empty and hold no comma")
        }
        let secret = secretPrefix + SecretToken.make()
        let device = SyncDevice(
            clientID: clientID, user: user, roles: Array(Set(roles)).sorted(), secretHash: SecretToken.hash(secret), createdAt: now)
        return (device, secret)
    }

    /// Whether `secret` is this credential's, compared in constant time.
    func accepts(_ secret: String) -> Bool {
        SecretToken.equal(SecretToken.hash(secret), secretHash)
    }

    /// The roles as stored: sorted, comma-separated.
    public var storedRoles: String { roles.joined(separator: ",") }

    /// The roles from their stored form.
    public static func roles(stored: String) -> [String] {
        stored.split(separator: ",").map(String.init)
    }
}
