import Hummingbird

/// The records page's filters, read from a request's query: `namespace`, `type`, `since` and
/// `until` (ms), `user` (`USER_ID`), `session` (`SESSION_ID`), `appVersion` (`APP_VERSION`),
/// each a string held in an indexed column, `device` (the upload's device id), any number of
/// `meta=key=value`, `cursor` and `limit` (1…500, default 50). Newest first.
enum ConsoleRecordQuery {
    static let defaultLimit = 50
    static let maximumLimit = 500

    /// The query a request asks for.
    /// - Throws: ``CollectorError/Code/invalidQuery`` naming the parameter that cannot be read.
    static func query(_ parameters: Parameters) throws(CollectorError) -> EventQuery {
        func integer(_ name: String) throws(CollectorError) -> Int64? {
            guard let text = parameters.get(name), !text.isEmpty else { return nil }
            guard let value = Int64(text) else { throw CollectorError(.invalidQuery, "\(name) must be a whole number") }
            return value
        }
        func text(_ name: String) -> String? {
            parameters.get(name).flatMap { $0.isEmpty ? nil : $0 }
        }
        var query = EventQuery(namespace: text("namespace"), monitorType: text("type"), since: try integer("since"), until: try integer("until"))
        query.newestFirst = true
        query.deviceID = text("device")
        query.userID = text("user")
        query.sessionID = text("session")
        query.appVersion = text("appVersion")
        let limit = try integer("limit") ?? Int64(defaultLimit)
        guard (1...Int64(maximumLimit)).contains(limit) else {
            throw CollectorError(.invalidQuery, "limit must be between 1 and \(maximumLimit)")
        }
        query.limit = Int(limit)
        for pair in parameters.getAll("meta") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw CollectorError(.invalidQuery, "meta must read key=value") }
            query.metaEquals.append(try MetaMatch(key: String(parts[0]), value: String(parts[1])))
        }
        if let token = text("cursor") {
            guard let cursor = EventCursor(token: token) else {
                throw CollectorError(.invalidQuery, "cursor must be the next value of an earlier page")
            }
            query.after = cursor
        }
        return query
    }
}
