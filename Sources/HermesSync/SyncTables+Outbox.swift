import GRDB
import HermesWire

/// The queue of unsent change sets, oldest first, kept as they were written; beside it:
///
/// - `hermes_sync_outbox_keys(sequence, type, id, reference)`: the records each queued change
///   set changes (`reference` 0) or refers to by temporary id (`reference` 1), by their current
///   id;
/// - `hermes_sync_renames(type, temporary_id, id)`: the server ids of records created here;
/// - `hermes_sync_rebases(type, id, base, revision)`: a queued change to a record based on
///   `base` is now based on `revision`, which this device's own change moved the record to.
///
/// A queued change set is read through the renames and rebases (`resolved(_:in:)`), so an
/// answer never rewrites the queue: a device that queued thousands of change sets offline does
/// work in proportion to the answer, not to the queue.
extension SyncTables {
    /// Creates the queue's tables (``SyncDeviceState/migrator``'s first step).
    static func createOutbox(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS hermes_sync_outbox(sequence INTEGER PRIMARY KEY, change_set TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS hermes_sync_outbox_keys(
                    sequence INTEGER NOT NULL, type TEXT NOT NULL, id INTEGER NOT NULL, reference INTEGER NOT NULL);
                CREATE INDEX IF NOT EXISTS hermes_sync_outbox_keys_by_record ON hermes_sync_outbox_keys(type, id);
                CREATE INDEX IF NOT EXISTS hermes_sync_outbox_keys_by_sequence ON hermes_sync_outbox_keys(sequence);
                CREATE TABLE IF NOT EXISTS hermes_sync_renames(
                    type TEXT NOT NULL, temporary_id INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY(type, temporary_id));
                CREATE TABLE IF NOT EXISTS hermes_sync_rebases(
                    type TEXT NOT NULL, id INTEGER NOT NULL, base INTEGER NOT NULL, revision INTEGER NOT NULL, PRIMARY KEY(type, id, base));
                """)
    }

    /// The queued change sets, oldest first (at most `limit`), resolved.
    func outbox(in db: Database, limit: Int = .max) throws -> [SyncChangeSet] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT change_set FROM hermes_sync_outbox ORDER BY sequence LIMIT ?"), arguments: [limit])
            .map { try resolved($0, in: db) }
    }

    /// The queued change set `sequence`, resolved, or `nil` when it is not queued (any more).
    func queued(_ sequence: Int64, in db: Database) throws -> SyncChangeSet? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT change_set FROM hermes_sync_outbox WHERE sequence = ?"), arguments: [sequence])
            .map { try resolved($0, in: db) }
    }

    /// Whether a queued change set changes the record.
    func isQueued(_ key: SyncRecordKey, in db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM hermes_sync_outbox_keys WHERE type = ? AND id = ? AND reference = 0 LIMIT 1")
        return try Bool.fetchOne(statement, arguments: [key.type, key.id]) != nil
    }

    /// Every record a queued change set changes.
    func queuedKeys(in db: Database) throws -> Set<SyncRecordKey> {
        Set(
            try Row.fetchAll(db, sql: "SELECT type, id FROM hermes_sync_outbox_keys WHERE reference = 0").map {
                SyncRecordKey(type: $0["type"], id: $0["id"])
            })
    }

    /// Whether any change set waits to be sent.
    func hasQueued(in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM hermes_sync_outbox)"))!
    }

    /// Queues a change set just written.
    func enqueue(_ changeSet: SyncChangeSet, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO hermes_sync_outbox(sequence, change_set) VALUES (?, ?)")
            .execute(arguments: [changeSet.sequence, try changeSet.jsonString()])
        let insert = try db.cachedStatement(sql: "INSERT INTO hermes_sync_outbox_keys(sequence, type, id, reference) VALUES (?, ?, ?, ?)")
        for (key, isReference) in touchedKeys(of: changeSet) {
            try insert.execute(arguments: [changeSet.sequence, key.type, key.id, isReference])
        }
    }

    /// The records `changeSet` changes, then those it refers to by temporary id (records created
    /// here that have no server id yet).
    func touchedKeys(of changeSet: SyncChangeSet) -> [(key: SyncRecordKey, isReference: Bool)] {
        changeSet.entries.map { (SyncRecordKey(type: $0.record.type, id: $0.record.id), false) }
            + changeSet.entries.flatMap { schema.references(of: $0.record).filter { $0.id < 0 }.map { ($0, true) } }
    }

    /// Removes change set `sequence` from the queue.
    func dequeue(_ sequence: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM hermes_sync_outbox WHERE sequence = ?").execute(arguments: [sequence])
        try db.cachedStatement(sql: "DELETE FROM hermes_sync_outbox_keys WHERE sequence = ?").execute(arguments: [sequence])
    }

    // MARK: Renames and rebases

    /// The record created here as `key` has the server's `id`, in the queued change sets too
    /// (kept only when a queued change set touches it).
    func recordRename(_ key: SyncRecordKey, to id: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE hermes_sync_outbox_keys SET id = ? WHERE type = ? AND id = ?")
            .execute(arguments: [id, key.type, key.id])
        guard db.changesCount > 0 else { return }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO hermes_sync_renames(type, temporary_id, id) VALUES (?, ?, ?)")
            .execute(arguments: [key.type, key.id, id])
    }

    /// This device's change based on `base` moved the record to `revision`: queued changes to
    /// it based on `base` (or on a revision already moved to `base`) are now based on `revision`.
    /// (Needed only while a queued change set changes the record.)
    func recordRebase(of key: SyncRecordKey, from base: Int64, to revision: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE hermes_sync_rebases SET revision = ? WHERE type = ? AND id = ? AND revision = ?")
            .execute(arguments: [revision, key.type, key.id, base])
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO hermes_sync_rebases(type, id, base, revision) VALUES (?, ?, ?, ?)")
            .execute(arguments: [key.type, key.id, base, revision])
    }

    /// Forgets the renames and rebases of records no queued change set touches any more.
    func forgetSettledRenamesAndRebases(in db: Database) throws {
        // Prepared once per connection: every answer runs them.
        for table in ["hermes_sync_renames", "hermes_sync_rebases"] {
            try db.cachedStatement(
                sql: """
                    DELETE FROM \(table) WHERE NOT EXISTS
                        (SELECT 1 FROM hermes_sync_outbox_keys k WHERE k.type = \(table).type AND k.id = \(table).id)
                    """
            ).execute()
        }
    }

    /// The stored change set `text` as it is sent now: server ids for temporary ones (in its
    /// entries and in the foreign keys of their attributes), and each change's base moved by the
    /// rebases.
    private func resolved(_ text: String, in db: Database) throws -> SyncChangeSet {
        let rename = try db.cachedStatement(sql: "SELECT id FROM hermes_sync_renames WHERE type = ? AND temporary_id = ?")
        let rebase = try db.cachedStatement(sql: "SELECT revision FROM hermes_sync_rebases WHERE type = ? AND id = ? AND base = ?")
        func serverID(_ type: String, _ id: Int64) throws -> Int64 {
            id < 0 ? try Int64.fetchOne(rename, arguments: [type, id]) ?? id : id
        }
        var changeSet = try SyncChangeSet(jsonBytes: text.utf8)
        for index in changeSet.entries.indices {
            var record = changeSet.entries[index].record
            record.id = try serverID(record.type, record.id)
            for attribute in schema.type(named: record.type)?.attributes ?? [] {
                guard let target = attribute.referencedType, let old = record.attributes?[attribute.name]?.intValue, old < 0 else { continue }
                record.attributes?[attribute.name] = .int(try serverID(target, old))
            }
            record.revision = try Int64.fetchOne(rebase, arguments: [record.type, record.id, record.revision]) ?? record.revision
            changeSet.entries[index].record = record
        }
        return changeSet
    }
}
