/// What a bearer token may do beside the admin token, which may do everything
/// (``CollectorConfiguration/tokens``).
public enum TokenScope: String, Sendable, Hashable, CaseIterable {
    /// Read records: `GET /v1/events…`.
    case read
    /// Edit namespaces: `PUT` and `DELETE /v1/admin/namespaces/{name}/config`.
    case configure
    /// Everything above, and erase users' and devices' records.
    case admin

    /// Whether a token with this scope may do what `needed` guards.
    func allows(_ needed: TokenScope) -> Bool { self == .admin || self == needed }
}
