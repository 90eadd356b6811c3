public import HermesWire

/// One saved change of a namespace's configuration, for the console's history and revert.
public struct ConfigurationChange: Sendable, Hashable {
    /// The store's id for the change (grows with each change).
    public var id: Int64
    /// The namespace changed.
    public var namespace: String
    /// The document's revision after the change.
    public var revision: Int
    /// Who changed it: a console user's name, or `admin-token` for the admin API.
    public var author: String
    /// When, in milliseconds since 1970.
    public var changedAt: Int64
    /// The namespace's configuration before (`nil`: it did not exist).
    public var before: JSONValue?
    /// The namespace's configuration after (`nil`: it was removed).
    public var after: JSONValue?

    /// Creates a change record.
    public init(id: Int64 = 0, namespace: String, revision: Int, author: String, changedAt: Int64, before: JSONValue?, after: JSONValue?) {
        self.id = id
        self.namespace = namespace
        self.revision = revision
        self.author = author
        self.changedAt = changedAt
        self.before = before
        self.after = after
    }
}
