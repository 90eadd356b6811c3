import HermesCollector
import PostgresNIO

extension EventQuery {
    /// The query's filters as a `WHERE` clause (with a leading space, or empty) and its binds
    /// (`$1`… in order).
    var postgresFilter: (clause: String, binds: PostgresBindings) {
        var conditions: [String] = []
        var binds = PostgresBindings()
        func add(_ condition: String, _ value: (some PostgresDynamicTypeEncodable)?) {
            guard let value else { return }
            binds.append(value)
            conditions.append("\(condition) $\(binds.count)")
        }
        add("namespace =", namespace)
        add("monitor_type =", monitorType)
        add("create_time >=", since)
        add("create_time <", until)
        add("device_id =", deviceID)
        add("user_id =", userID)
        add("session_id =", sessionID)
        add("app_version =", appVersion)
        for match in metaEquals {
            binds.append(match.key)
            binds.append(match.value)
            // jsonb cannot hold a NUL: a meta that escapes one is never matched rather than
            // failing the whole query.
            conditions.append("CASE WHEN strpos(meta, '\\u0000') = 0 THEN meta::jsonb ->> $\(binds.count - 1) END = $\(binds.count)")
        }
        if let after {
            binds.append(after.createTime)
            binds.append(after.id)
            conditions.append("(create_time, id) \(cursorComparison) ($\(binds.count - 1), $\(binds.count))")
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), binds)
    }
}
