/// The SQL of the device credentials' table, `sync_devices`, which SQLite and PostgreSQL share:
/// a row per client id, never deleted (a revoked one keeps its client id taken).
package enum SyncDeviceQueries {
    package static let createTable = """
        CREATE TABLE sync_devices (
            client_id text PRIMARY KEY, user_id text NOT NULL, roles text NOT NULL, secret_hash text NOT NULL,
            created_at bigint NOT NULL, revoked_at bigint)
        """
    /// Columns in ``SyncDevice``'s order.
    package static let columns = "client_id, user_id, roles, secret_hash, created_at, revoked_at"
    /// Inserts a row (client id, user, stored roles, secret hash, issue time) unless the client
    /// id has one; returns the client id when it did.
    package static let insert = """
        INSERT INTO sync_devices (client_id, user_id, roles, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (client_id) DO NOTHING RETURNING client_id
        """
    package static let selectOne = "SELECT \(columns) FROM sync_devices WHERE client_id = $1"
    package static let selectAll = "SELECT \(columns) FROM sync_devices ORDER BY client_id"
    /// Sets `revoked_at` ($1) of a client id ($2) not yet revoked; returns the client id when it did.
    package static let revoke = "UPDATE sync_devices SET revoked_at = $1 WHERE client_id = $2 AND revoked_at IS NULL RETURNING client_id"

    /// The refusal of a second credential for `clientID`.
    package static func taken(_ clientID: String) -> CollectorError {
        CollectorError(.editConflict, "client id \(clientID) already has a credential; a client id is never reused")
    }
}
