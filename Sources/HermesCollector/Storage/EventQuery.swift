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
    /// Only events brought by an upload with this `X-Hermes-Device-Id`.
    public var deviceID: String?
    /// Only events whose meta's `USER_ID` is this string (an indexed column, see ``RecordFacets``).
    public var userID: String?
    /// Only events whose meta's `SESSION_ID` is this string (an indexed column).
    public var sessionID: String?
    /// Only events whose meta's `APP_VERSION` is this string.
    public var appVersion: String?
    /// Only events whose meta has each of these keys with exactly this value (compared as text:
    /// `4` matches the number 4 and the string "4").
    public var metaEquals: [MetaMatch] = []
    /// Newest first: pages go back in time, and ``after`` is the last event of the previous
    /// page in that order.
    public var newestFirst = false
    /// Only events after this one in `(createTime, id)` order (before it when ``newestFirst``):
    /// the next page.
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

    /// The order events are read in, for a store's `ORDER BY`.
    package var sqlOrder: String { newestFirst ? "create_time DESC, id DESC" : "create_time, id" }
    /// How the cursor compares, for a store's `(create_time, id) <op> (…)`.
    package var cursorComparison: String { newestFirst ? "<" : ">" }
}

/// One meta key and the value it must have, for ``EventQuery/metaEquals``.
public struct MetaMatch: Sendable, Hashable {
    /// The top-level meta key: 1 to 128 characters, without quotes or backslashes.
    public var key: String
    /// The value, as text.
    public var value: String

    /// Creates a match.
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a key that is empty, too long, or holds a quote or backslash.
    public init(key: String, value: String) throws(CollectorError) {
        guard (1...128).contains(key.count), !key.contains("\""), !key.contains("\\") else {
            throw CollectorError(.invalidQuery, "a meta key to match is 1 to 128 characters without quotes or backslashes")
        }
        self.key = key
        self.value = value
    }

    /// The SQLite JSON path of the key: `$."key"`.
    package var jsonPath: String { "$.\"\(key)\"" }
}
