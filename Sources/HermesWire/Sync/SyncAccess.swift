/// Who may read or write the records of a ``SyncEntityType``: a device passes when any one of a
/// list's rules lets it. An empty list lets no device (records only a server-side tool writes).
///
/// The device is known by the credential it syncs with (`hermes sync devices add`), which names
/// its user and roles; a device syncing with the app key alone has neither.
///
/// In the schema's JSON form a rule is `"everyone"`, `"owner"` or `"role:NAME"`, and a list is one
/// rule or an array of them.
public enum SyncAccessRule: Sendable, Hashable, CustomStringConvertible {
    /// Every device.
    case everyone
    /// A device whose user is the record's owner: the value of the type's owner attribute
    /// (``SyncEntityType/owner``). A created record must name the device's user as its owner,
    /// and an update may not give it away.
    case owner
    /// A device whose credential holds this role.
    case role(String)

    /// The rule's JSON form: `everyone`, `owner` or `role:NAME`.
    public var description: String {
        switch self {
        case .everyone: "everyone"
        case .owner: "owner"
        case .role(let name): "role:\(name)"
        }
    }

    /// The rule written `text` (its ``description``), or `nil`.
    public init?(_ text: String) {
        switch text {
        case "everyone": self = .everyone
        case "owner": self = .owner
        case let role where role.hasPrefix("role:") && role.count > 5: self = .role(String(role.dropFirst(5)))
        default: return nil
        }
    }
}

/// What a device's credential says about it: the device (its `clientID`), its user and its roles.
/// A device syncing without a credential is anonymous: only ``SyncAccessRule/everyone`` lets it.
public struct SyncIdentity: Sendable, Hashable {
    /// The device's `clientID`.
    public var clientID: String
    /// The user the device acts for, compared with owner attributes.
    public var user: String?
    /// The roles its credential holds.
    public var roles: Set<String>

    /// An identity.
    public init(clientID: String, user: String? = nil, roles: Set<String> = []) {
        self.clientID = clientID
        self.user = user
        self.roles = roles
    }
}

extension SyncEntityType {
    /// Whether `identity` may read `record` (a record of this type; a tombstone, whose owner is
    /// gone, passes where the owner rule is one of the read rules).
    public func mayRead(_ record: SyncRecord, by identity: SyncIdentity) -> Bool {
        Self.passes(read, identity) { record.attributes.map { owned($0, by: identity) } ?? true }
    }

    /// Whether `identity` may write a record of this type from `stored` (nil for a created
    /// record) to `written` (nil for a delete): under the owner rule, the device's user owns the
    /// record before and after.
    public func mayWrite(from stored: [String: JSONValue]?, to written: [String: JSONValue]?, by identity: SyncIdentity) -> Bool {
        Self.passes(write, identity) {
            (stored.map { owned($0, by: identity) } ?? true) && (written.map { owned($0, by: identity) } ?? true)
        }
    }

    private func owned(_ attributes: [String: JSONValue], by identity: SyncIdentity) -> Bool {
        guard let owner, let user = identity.user else { return false }
        return attributes[owner]?.stringValue == user
    }

    private static func passes(_ rules: [SyncAccessRule], _ identity: SyncIdentity, owns: () -> Bool) -> Bool {
        rules.contains { rule in
            switch rule {
            case .everyone: true
            case .role(let name): identity.roles.contains(name)
            case .owner: identity.user != nil && owns()
            }
        }
    }
}
