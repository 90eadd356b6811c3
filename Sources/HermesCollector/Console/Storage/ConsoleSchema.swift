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

    /// Adds a batch's new records to the minute's counts: binds minute, namespace, type, count.
    package static let addMinute = """
        INSERT INTO record_minutes (minute, namespace, monitor_type, records) VALUES (?, ?, ?, ?)
        ON CONFLICT (minute, namespace, monitor_type) DO UPDATE SET records = record_minutes.records + excluded.records
        """
}
