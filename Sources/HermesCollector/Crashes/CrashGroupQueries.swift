/// The statements both stores run for crash groups, in each one's SQL: they differ only in how
/// parameters are written (`?` or `$1`…) and how the distinct app versions are aggregated.
///
/// A window is two parameters, its first `CREATE_TIME` and the first after it (``window(since:until:)``).
package enum CrashGroupQueries {
    /// A store's SQL.
    package enum Dialect: Sendable {
        case sqlite
        case postgres
    }

    /// The window's bounds as parameters: no bound is the smallest or largest time.
    package static func window(since: Int64?, until: Int64?) -> (since: Int64, until: Int64) {
        (since ?? .min, until ?? .max)
    }

    /// Refuses a bucket shorter than a millisecond.
    /// - Throws: ``CollectorError/Code/invalidQuery``.
    package static func checkBucket(_ bucket: Int64) throws(CollectorError) {
        guard bucket >= 1 else { throw CollectorError(.invalidQuery, "the bucket must be at least 1 millisecond") }
    }

    /// The recorded progress: one row, the cursor's `receivedAt` and id.
    package static let progress = "SELECT received_until, last_id FROM crash_progress WHERE id = 1"

    /// Records the cursor unless a step that ran meanwhile moved it further: the cursor's
    /// `receivedAt` and id, twice.
    package static func advance(_ dialect: Dialect) -> String {
        numbered(
            "UPDATE crash_progress SET received_until = ?, last_id = ? WHERE id = 1 AND (received_until, last_id) < (?, ?)", dialect)
    }

    /// The crash records not grouped yet, oldest receipt first (see ``CrashGroupingBatch``):
    /// those after the cursor (its `receivedAt` and id, then the most records), or, `caughtUp`,
    /// those received since the margin's start (then the most records). Columns: namespace,
    /// report id, create time, received at, id, meta, payload, device id.
    package static func ungrouped(_ dialect: Dialect, caughtUp: Bool) -> String {
        numbered(
            """
            SELECT namespace, report_id, create_time, received_at, id, meta, payload, device_id FROM events
            WHERE \(CrashGroupingBatch.crashRecords) AND \(caughtUp ? "received_at >= ?" : "(received_at, id) > (?, ?)")
              AND NOT EXISTS (
                SELECT 1 FROM crash_members m
                WHERE m.namespace = events.namespace AND m.report_id = events.report_id AND m.create_time = events.create_time
              )
            ORDER BY received_at, id LIMIT ?
            """, dialect)
    }

    /// The groups with crashes in the window, latest crash first: the window, then (with
    /// `oneGroup`) a signature, then the most groups. Columns: signature, title, culprit, count,
    /// users, first seen, last seen, app versions as a JSON array (or `NULL`).
    package static func summaries(_ dialect: Dialect, oneGroup: Bool) -> String {
        let versions =
            switch dialect {
            case .sqlite: "json_group_array(DISTINCT app_version) FILTER (WHERE app_version IS NOT NULL)"
            case .postgres: "array_to_json(array_agg(DISTINCT app_version) FILTER (WHERE app_version IS NOT NULL))::text"
            }
        return numbered(
            """
            SELECT g.signature, g.title, g.culprit, w.crashes, w.users, g.first_seen, w.last_seen, w.versions
            FROM (
                SELECT signature, count(*) AS crashes, count(DISTINCT coalesce('u:' || user_id, 'd:' || device_id)) AS users,
                       max(create_time) AS last_seen, \(versions) AS versions
                FROM crash_members
                WHERE create_time >= ? AND create_time < ?\(oneGroup ? " AND signature = ?" : "")
                GROUP BY signature ORDER BY last_seen DESC, signature LIMIT ?
            ) w
            JOIN crash_groups g ON g.signature = w.signature
            ORDER BY w.last_seen DESC, g.signature
            """, dialect)
    }

    /// The latest stored record of a group in the window: a signature, then the window. Columns:
    /// those of `events`, `id` last.
    package static func latest(_ dialect: Dialect) -> String {
        numbered(
            """
            SELECT e.namespace, e.report_id, e.monitor_type, e.create_time, e.meta, e.payload, e.device_id, e.batch_id, e.received_at, e.app_key_id,
                e.id
            FROM crash_members m
            JOIN events e ON e.namespace = m.namespace AND e.report_id = m.report_id AND e.create_time = m.create_time
            WHERE m.signature = ? AND m.create_time >= ? AND m.create_time < ?
            ORDER BY m.create_time DESC, e.id DESC LIMIT 1
            """, dialect)
    }

    /// A group's crashes per bucket in the window, oldest first: the bucket's length three times,
    /// a signature, then the window. Columns: the bucket's start, its count.
    package static func buckets(_ dialect: Dialect) -> String {
        numbered(
            """
            SELECT create_time - (((create_time % ?) + ?) % ?) AS bucket_start, count(*) FROM crash_members
            WHERE signature = ? AND create_time >= ? AND create_time < ?
            GROUP BY bucket_start ORDER BY bucket_start
            """, dialect)
    }

    /// `sql` with its `?` parameters numbered `$1`, `$2`… for PostgreSQL.
    private static func numbered(_ sql: String, _ dialect: Dialect) -> String {
        guard dialect == .postgres else { return sql }
        var number = 0
        return sql.split(separator: "?", omittingEmptySubsequences: false).reduce(into: "") { text, part in
            if number > 0 { text += "$\(number)" }
            text += part
            number += 1
        }
    }
}
