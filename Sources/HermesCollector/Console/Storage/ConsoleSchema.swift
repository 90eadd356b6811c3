import HermesWire

/// The console's tables, the same on SQLite and PostgreSQL (times are milliseconds since 1970;
/// configurations are JSON text).
package enum ConsoleSchema {
    /// The tables and the index the live tail reads by.
    /// - Parameter idColumn: the definition of an id that grows by itself, in the store's dialect.
    package static func statements(idColumn: String) -> [String] {
        [
            """
            CREATE TABLE console_users (
                name text PRIMARY KEY,
                role text NOT NULL,
                password_hash text NOT NULL,
                created_at bigint NOT NULL
            )
            """,
            """
            CREATE TABLE console_sessions (
                token_hash text PRIMARY KEY,
                user_name text NOT NULL REFERENCES console_users (name) ON DELETE CASCADE,
                csrf_token text NOT NULL,
                expires_at bigint NOT NULL
            )
            """,
            "CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at)",
            """
            CREATE TABLE config_changes (
                \(idColumn),
                namespace text NOT NULL,
                revision integer NOT NULL,
                author text NOT NULL,
                changed_at bigint NOT NULL,
                before text,
                after text
            )
            """,
            "CREATE INDEX config_changes_by_namespace ON config_changes (namespace, id)",
            """
            CREATE TABLE record_minutes (
                minute bigint NOT NULL,
                namespace text NOT NULL,
                monitor_type text NOT NULL,
                records bigint NOT NULL,
                PRIMARY KEY (minute, namespace, monitor_type)
            )
            """,
            "CREATE INDEX events_by_arrival ON events (received_at)",
        ]
    }

    /// The performance rollup (``PerformanceCell``), the delivery health rollups
    /// (``DeliveryLoss``, ``QueuedOnDevices``) and the records' facet columns (``RecordFacets``),
    /// with their indexes: the second console migration. `backfill` fills the new columns of the
    /// records already stored; it runs before the indexes are built.
    package static func facetsAndRollups(backfill: String) -> [String] {
        [
            """
            CREATE TABLE performance_rollup (
                width bigint NOT NULL,
                start bigint NOT NULL,
                measure text NOT NULL,
                key text NOT NULL,
                bucket bigint NOT NULL,
                samples bigint NOT NULL,
                failures bigint NOT NULL,
                total_ms double precision NOT NULL,
                PRIMARY KEY (width, start, measure, key, bucket)
            )
            """,
            """
            CREATE TABLE delivery_losses (
                hour bigint NOT NULL,
                app_version text NOT NULL,
                reason text NOT NULL,
                lost bigint NOT NULL,
                PRIMARY KEY (hour, app_version, reason)
            )
            """,
            "CREATE TABLE device_queues (device text PRIMARY KEY, reported_at bigint NOT NULL, depth bigint NOT NULL)",
            "CREATE INDEX device_queues_by_time ON device_queues (reported_at)",
            "ALTER TABLE events ADD COLUMN user_id text",
            "ALTER TABLE events ADD COLUMN session_id text",
            "ALTER TABLE events ADD COLUMN app_version text",
            backfill,
            "CREATE INDEX events_by_user ON events (user_id, create_time, id)",
            "CREATE INDEX events_by_session ON events (session_id, create_time, id)",
        ]
    }

    /// The statement that fills the facet columns of stored records, given the dialect's
    /// expression for a meta key's value as a facet (`RecordFacets.text(_:)`; `NULL` otherwise).
    package static func backfillFacets(_ text: (String) -> String) -> String {
        "UPDATE events SET user_id = \(text(RecordField.userID)), session_id = \(text(RecordField.sessionID)), "
            + "app_version = \(text(RecordField.appVersion))"
    }

    /// Adds cells to the performance rollup: binds width, start, measure, key, bucket, samples,
    /// failures, milliseconds.
    package static let addPerformance = """
        INSERT INTO performance_rollup (width, start, measure, key, bucket, samples, failures, total_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (width, start, measure, key, bucket) DO UPDATE SET samples = performance_rollup.samples + excluded.samples,
            failures = performance_rollup.failures + excluded.failures, total_ms = performance_rollup.total_ms + excluded.total_ms
        """

    /// Sums the performance rollup's cells of one width by slot: binds from, slot minutes,
    /// width, from, until (minutes). Answers slot, measure, key, bucket, samples, failures,
    /// milliseconds.
    package static let readPerformance = """
        SELECT (start - ?) / ?, measure, key, bucket, CAST(sum(samples) AS bigint), CAST(sum(failures) AS bigint),
            CAST(sum(total_ms) AS double precision)
        FROM performance_rollup WHERE width = ? AND start >= ? AND start < ?
        GROUP BY 1, measure, key, bucket
        """

    /// What retention removes with the records created before `end` (ms): the rollups' rows of
    /// that time (record minutes by arrival, performance cells and losses by start, device
    /// queues by their latest report). Each statement binds its bound.
    package static func removeRollups(before end: Int64) -> [(sql: String, bound: Int64)] {
        [
            ("DELETE FROM record_minutes WHERE minute < ?", end / 60_000), ("DELETE FROM performance_rollup WHERE start < ?", end / 60_000),
            ("DELETE FROM delivery_losses WHERE hour < ?", end / 3_600_000), ("DELETE FROM device_queues WHERE reported_at < ?", end),
        ]
    }

    /// Adds records lost on devices: binds hour, app version, reason, count.
    package static let addLoss = """
        INSERT INTO delivery_losses (hour, app_version, reason, lost) VALUES (?, ?, ?, ?)
        ON CONFLICT (hour, app_version, reason) DO UPDATE SET lost = delivery_losses.lost + excluded.lost
        """

    /// Keeps a device's queue depth unless a later report is kept: binds device, time, depth.
    package static let noteQueue = """
        INSERT INTO device_queues (device, reported_at, depth) VALUES (?, ?, ?)
        ON CONFLICT (device) DO UPDATE SET reported_at = excluded.reported_at, depth = excluded.depth
        WHERE excluded.reported_at >= device_queues.reported_at
        """

    /// Sums records lost by app version and reason from an hour on: binds the hour.
    package static let readLosses = """
        SELECT app_version, reason, CAST(sum(lost) AS bigint) FROM delivery_losses WHERE hour >= ? GROUP BY app_version, reason
        """

    /// Counts the devices that reported since a time and sums their latest queue depths: binds the time.
    package static let readQueues = "SELECT count(*), CAST(coalesce(sum(depth), 0) AS bigint) FROM device_queues WHERE reported_at >= ?"

    /// Adds a batch's new records to the minute's counts: binds minute, namespace, type, count.
    package static let addMinute = """
        INSERT INTO record_minutes (minute, namespace, monitor_type, records) VALUES (?, ?, ?, ?)
        ON CONFLICT (minute, namespace, monitor_type) DO UPDATE SET records = record_minutes.records + excluded.records
        """
}
