/// What a bearer token may do beside the admin token, which may do everything
/// (``CollectorConfiguration/tokens``).
public enum TokenScope: String, Sendable, Hashable, CaseIterable {
    /// Send records as an app key does (`POST /v1/upload…` and `/v1/sync` with
    /// `Authorization: Bearer`): for server-side senders, to any namespace. The token's id
    /// (``StoredEvent/appKeyID``) is stored with the records and its uploads count against
    /// ``CollectorConfiguration/appKeyRequestsPerSecond`` as a key's do.
    case ingest
    /// Read records: `GET /v1/events…`.
    case read
    /// Edit namespaces: `PUT` and `DELETE /v1/admin/namespaces/{name}/config`.
    case configure
    /// Everything above, and erase users' and devices' records.
    case admin

    /// Whether a token with this scope may do what `needed` guards.
    func allows(_ needed: TokenScope) -> Bool { self == .admin || self == needed }
}
