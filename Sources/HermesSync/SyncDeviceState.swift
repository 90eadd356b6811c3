import GRDB

/// What a device remembers of its exchanges with the server, the one row of
/// `hermes_sync_state`, with every operation on it: the revision and cursor the last answer
/// left, the next temporary id a local create takes (negative, counting down) and the sequence
/// the next queued change set gets.
///
/// Every function runs inside the caller's transaction.
struct SyncDeviceState: Equatable {
    /// The device's id, sent with every request.
    var clientID: String
    /// The last revision stored with its changes.
    var maxRevision: Int64
    /// Where the server resumes a catch-up that did not finish in one answer.
    var cursor: String?
    /// The id the next locally created record gets.
    var nextTemporaryID: Int64
    /// The sequence the next queued change set gets.
    var nextSequence: Int64

    /// The device's tables that do not depend on the schema, created by GRDB's migrator so that
    /// a later version can change them step by step: the state and the queue of change sets
    /// (`SyncTables+Outbox`). Every statement is `IF NOT EXISTS`, so a database made before the
    /// migrator takes its first step as it is.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("hermes-sync-device-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS hermes_sync_state(
                        id INTEGER PRIMARY KEY CHECK (id = 1), client_id TEXT NOT NULL, max_revision INTEGER NOT NULL,
                        cursor TEXT, next_temporary_id INTEGER NOT NULL, next_sequence INTEGER NOT NULL);
                    """)
            try SyncTables.createOutbox(in: db)
        }
        migrator.registerMigration("hermes-sync-device-v2: schema version") { db in
            try db.execute(sql: "ALTER TABLE hermes_sync_state ADD COLUMN schema_version INTEGER")
        }
        return migrator
    }

    /// Remembers the schema version the app speaks. When it differs from the one remembered (the
    /// app was updated), the device asks for every record again from revision 0, so that the
    /// values of attributes its old schema did not have arrive; its queued change sets stay.
    static func adopt(schemaVersion: Int64, in db: Database) throws {
        let stored = try Int64.fetchOne(db, sql: "SELECT schema_version FROM hermes_sync_state WHERE id = 1")
        guard stored != schemaVersion else { return }
        if stored != nil {
            try db.execute(sql: "UPDATE hermes_sync_state SET max_revision = 0, cursor = NULL WHERE id = 1")
        }
        try db.execute(sql: "UPDATE hermes_sync_state SET schema_version = ? WHERE id = 1", arguments: [schemaVersion])
    }

    /// Starts the state of a new device `clientID`; an existing one is kept, but a snapshot's
    /// (``SyncSnapshot``, made without a client id) takes this one.
    static func start(clientID: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO hermes_sync_state(id, client_id, max_revision, next_temporary_id, next_sequence) VALUES (1, ?, 0, -1, 1)",
            arguments: [clientID]
        )
        try db.execute(sql: "UPDATE hermes_sync_state SET client_id = ? WHERE id = 1 AND client_id = ''", arguments: [clientID])
    }

    /// The state as stored.
    static func read(in db: Database) throws -> SyncDeviceState {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM hermes_sync_state WHERE id = 1"))!
        return SyncDeviceState(
            clientID: row["client_id"], maxRevision: row["max_revision"], cursor: row["cursor"],
            nextTemporaryID: row["next_temporary_id"], nextSequence: row["next_sequence"]
        )
    }

    /// Takes the id of a record created on this device.
    static func takeTemporaryID(in db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: "UPDATE hermes_sync_state SET next_temporary_id = next_temporary_id - 1 WHERE id = 1 RETURNING next_temporary_id + 1")
        )!
    }

    /// Takes the sequence of a change set being queued.
    static func takeSequence(in db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE hermes_sync_state SET next_sequence = next_sequence + 1 WHERE id = 1 RETURNING next_sequence - 1")
        )!
    }

    /// Remembers where an answer left the device.
    static func answered(maxRevision: Int64, cursor: String?, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE hermes_sync_state SET max_revision = ?, cursor = ? WHERE id = 1").execute(arguments: [
            maxRevision, cursor,
        ])
    }
}
