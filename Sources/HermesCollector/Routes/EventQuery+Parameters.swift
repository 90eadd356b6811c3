import Hummingbird

extension EventQuery {
    /// Reads the filters (``init(filters:)``) and `limit` from a request's query.
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a filter that cannot be read, a limit
    ///   that is not a whole number or is outside 1…``maximumLimit``.
    init(_ parameters: Parameters) throws(CollectorError) {
        try self.init(filters: parameters)
        let limit = try Self.integer("limit", in: parameters) ?? Int64(Self.defaultLimit)
        guard (1...Int64(Self.maximumLimit)).contains(limit) else {
            throw CollectorError(.invalidQuery, "limit must be between 1 and \(Self.maximumLimit)")
        }
        self.limit = Int(limit)
    }

    /// Reads `namespace`, `type`, `since` and `until` (ms), `device` (the upload's device id),
    /// `user` (`USER_ID`), `session` (`SESSION_ID`), `appVersion` (`APP_VERSION`), any number of
    /// `meta=key=value`, and `cursor` from a request's query; an empty value is no filter. The
    /// limit is the default.
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a time that is not a whole number, a
    ///   meta match that is not `key=value` or whose key ``MetaMatch`` refuses, or a cursor no
    ///   page gave.
    init(filters parameters: Parameters) throws(CollectorError) {
        func text(_ name: String) -> String? {
            parameters.get(name).flatMap { $0.isEmpty ? nil : $0 }
        }
        self.init(
            namespace: text("namespace"), monitorType: text("type"), since: try Self.integer("since", in: parameters),
            until: try Self.integer("until", in: parameters))
        deviceID = text("device")
        userID = text("user")
        sessionID = text("session")
        appVersion = text("appVersion")
        for pair in parameters.getAll("meta") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw CollectorError(.invalidQuery, "meta must read key=value") }
            metaEquals.append(try MetaMatch(key: String(parts[0]), value: String(parts[1])))
        }
        if let token = text("cursor") {
            guard let cursor = EventCursor(token: token) else {
                throw CollectorError(.invalidQuery, "cursor must be the next value of an earlier page")
            }
            after = cursor
        }
    }

    /// The whole number a query parameter holds, or `nil` when it is absent or empty.
    /// - Throws: ``CollectorError/Code/invalidQuery`` naming the parameter when it holds anything else.
    static func integer(_ name: String, in parameters: Parameters) throws(CollectorError) -> Int64? {
        guard let text = parameters.get(name), !text.isEmpty else { return nil }
        guard let value = Int64(text) else { throw CollectorError(.invalidQuery, "\(name) must be a whole number") }
        return value
    }
}
