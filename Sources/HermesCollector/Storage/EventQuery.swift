/// Which stored events to read: every filter is optional; times are `CREATE_TIME` milliseconds.
///
/// ```swift
/// let crashes = try await storage.events(EventQuery(namespace: "hermes", monitorType: "appCrash"))
/// ```
public struct EventQuery: Sendable, Hashable {
    /// The most events one query may return.
    public static let maximumLimit = 10_000
    /// The number of events returned when no limit is given.
    public static let defaultLimit = 100
    /// The most stored bytes (meta plus payload) one page holds, unless its first event alone is
    /// larger: 4 MiB, so that a page answer stays within about 6 MiB of JSON.
    public static let maximumPageBytes = 4 << 20

    /// Only events of this namespace.
    public var namespace: String?
    /// Only events whose `MONITOR_TYPE` is exactly this.
    public var monitorType: String?
    /// Only events created at or after this time (inclusive).
    public var since: Int64?
    /// Only events created before this time (exclusive).
    public var until: Int64?
    /// Only events after this one in `(createTime, id)` order: the next page.
    public var after: EventCursor?
    /// The most events to return, 1 to ``maximumLimit``.
    public var limit: Int

    /// Creates a query.
    public init(
        namespace: String? = nil, monitorType: String? = nil, since: Int64? = nil, until: Int64? = nil,
        after: EventCursor? = nil, limit: Int = defaultLimit
    ) {
        self.namespace = namespace
        self.monitorType = monitorType
        self.since = since
        self.until = until
        self.after = after
        self.limit = limit
    }
}
