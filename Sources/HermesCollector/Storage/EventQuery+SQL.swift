import GRDB

extension EventQuery {
    /// The query's filters as a `WHERE` clause (with a leading space, or empty) and its arguments.
    var sqlFilter: (clause: String, arguments: StatementArguments) {
        let filters: [(condition: String, value: (any DatabaseValueConvertible)?)] = [
            ("namespace = ?", namespace),
            ("monitor_type = ?", monitorType),
            ("create_time >= ?", since),
            ("create_time < ?", until),
            ("device_id = ?", deviceID),
            ("user_id = ?", userID),
            ("session_id = ?", sessionID),
            ("app_version = ?", appVersion),
        ]
        var conditions: [String] = []
        var arguments = StatementArguments()
        for filter in filters {
            guard let value = filter.value else { continue }
            conditions.append(filter.condition)
            arguments += [value]
        }
        for match in metaEquals {
            conditions.append("CAST(json_extract(meta, ?) AS TEXT) = ?")
            arguments += [match.jsonPath, match.value]
        }
        if let after {
            conditions.append("(create_time, id) \(cursorComparison) (?, ?)")
            arguments += [after.createTime, after.id]
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}
