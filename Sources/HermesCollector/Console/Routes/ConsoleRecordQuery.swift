import Hummingbird

/// The records page's filters, read from a request's query: those of `GET /v1/events`
/// (``EventQuery/init(filters:)``: `namespace`, `type`, `since`, `until`, `user`, `session`,
/// `appVersion`, `device`, any number of `meta=key=value`, `cursor`), and `limit` (1…500,
/// default 50). Newest first.
enum ConsoleRecordQuery {
    static let defaultLimit = 50
    static let maximumLimit = 500

    /// The query a request asks for.
    /// - Throws: ``CollectorError/Code/invalidQuery`` naming the parameter that cannot be read.
    static func query(_ parameters: Parameters) throws(CollectorError) -> EventQuery {
        var query = try EventQuery(filters: parameters)
        query.newestFirst = true
        let limit = try EventQuery.integer("limit", in: parameters) ?? Int64(defaultLimit)
        guard (1...Int64(maximumLimit)).contains(limit) else {
            throw CollectorError(.invalidQuery, "limit must be between 1 and \(maximumLimit)")
        }
        query.limit = Int(limit)
        return query
    }
}
