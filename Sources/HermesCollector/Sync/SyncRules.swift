public import HermesWire

/// What the server enforces on record sync: the schema (with its access rules,
/// `SyncAccessRule`), whether devices need credentials, an extra permission check, and how
/// large a catch-up page is.
///
/// ```swift
/// let rules = SyncRules(schema: schema) { clientID, entry in
///     entry.record.type != "audit_log" || entry.operation == .create
/// }
/// ```
public struct SyncRules: Sendable {
    /// Whether the device `clientID` may make the change `entry`; a refusal makes the change set a
    /// conflict with reason `SyncConflictReason/forbidden`.
    public typealias Permission = @Sendable (_ clientID: String, _ entry: SyncChangeSet.Entry) -> Bool

    /// The shared schema.
    public var schema: SyncSchema
    /// The permission check, asked for each entry of each change set after the schema's rules.
    public var permission: Permission
    /// About how many records one answer carries before it says `hasMore`.
    public var pageRecords: Int
    /// How many change sets of one request are applied; a device sends the rest next time.
    public var maximumChangeSets: Int
    /// Days tombstones and change set outcomes are kept (the collector forgets older ones once
    /// an hour); `nil` keeps them for ever.
    public var historyDays: Int?
    /// Whether a device must sync with a credential (``SyncDevice``); when `false`, a device
    /// without one syncs anonymously, under the `everyone` rules, with a client id no credential holds.
    public var requireCredentials: Bool

    /// Rules.
    /// - Parameters:
    ///   - schema: the shared schema.
    ///   - pageRecords: about how many records one answer carries (default 5,000).
    ///   - maximumChangeSets: change sets applied per request (default 200).
    ///   - historyDays: days tombstones and outcomes are kept (default 30; `nil`: for ever).
    ///   - requireCredentials: whether every device needs a credential (default `false`).
    ///   - permission: a check beside the schema's access rules (default: everything allowed).
    public init(
        schema: SyncSchema, pageRecords: Int = 5_000, maximumChangeSets: Int = 200, historyDays: Int? = 30, requireCredentials: Bool = false,
        permission: @escaping Permission = { _, _ in true }
    ) {
        self.requireCredentials = requireCredentials
        self.historyDays = historyDays.map { max(1, $0) }
        self.schema = schema
        self.permission = permission
        self.pageRecords = max(1, pageRecords)
        self.maximumChangeSets = max(1, maximumChangeSets)
    }
}
