import Hummingbird

extension EventQuery {
    /// Reads `namespace`, `type`, `since`, `until`, `cursor` and `limit` from a request's query.
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a time or limit that is not a whole
    ///   number, a limit outside 1…``maximumLimit``, or a cursor no page gave.
    init(_ parameters: Parameters) throws(CollectorError) {
        func integer(_ name: String) throws(CollectorError) -> Int64? {
            guard let text = parameters.get(name) else { return nil }
            guard let value = Int64(text) else {
                throw CollectorError(.invalidQuery, "\(name) must be a whole number")
            }
            return value
        }
        let limit = try integer("limit") ?? Int64(Self.defaultLimit)
        guard (1...Int64(Self.maximumLimit)).contains(limit) else {
            throw CollectorError(.invalidQuery, "limit must be between 1 and \(Self.maximumLimit)")
        }
        var after: EventCursor?
        if let token = parameters.get("cursor") {
            guard let cursor = EventCursor(token: token) else {
                throw CollectorError(.invalidQuery, "cursor must be the next value of an earlier page")
            }
            after = cursor
        }
        self.init(
            namespace: parameters.get("namespace"),
            monitorType: parameters.get("type"),
            since: try integer("since"),
            until: try integer("until"),
            after: after,
            limit: Int(limit)
        )
    }
}
