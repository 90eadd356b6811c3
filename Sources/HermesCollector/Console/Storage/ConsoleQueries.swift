/// The console's reads that SQLite and PostgreSQL share word for word (`?` placeholders;
/// PostgreSQL's store numbers them).
package enum ConsoleQueries {
    /// A live session with its user's role now: binds the token hash and the time.
    package static let session = """
        SELECT s.token_hash, s.user_name, s.csrf_token, s.expires_at, u.role
        FROM console_sessions s JOIN console_users u ON u.name = s.user_name
        WHERE s.token_hash = ? AND s.expires_at > ?
        """

    /// The per-minute counts from a minute on: binds the first minute.
    package static let recordMinutes = "SELECT minute, namespace, monitor_type, records FROM record_minutes WHERE minute >= ? ORDER BY minute"
}
