import Foundation
import GRDB
public import HermesWire

/// The collector's default store of record sync: one SQLite database through GRDB.
///
/// Every change set is applied inside GRDB's single writer, so revisions are assigned and
/// committed one after the other (a reader never sees revision *n* without every revision below
/// it). A file opens as a WAL `DatabasePool`: catch-up pages are read from snapshots while the
/// writer works.
///
/// Tables: `sync_records(type, id, revision, created, attributes, deleted_at)` (a tombstone has no
/// attributes), indexed on `revision`; `sync_references(target_type, target_id, type, id)`, the
/// foreign keys, to refuse deleting a referenced record; `sync_outcomes(client_id, sequence,
/// revision, outcome, received_at)`; `sync_state(revision, next_id, horizon)`; `sync_devices`, the
/// device credentials (``SyncDevice``).
///
/// ```swift
/// let storage = try SQLiteSyncStorage(path: "/var/lib/hermes/sync.sqlite")
/// ```
public struct SQLiteSyncStorage: SyncStorage {
    /// The database (internal so that tests can reach it).
    let writer: any DatabaseWriter

    /// Opens (or creates) the database file at `path`.
    /// - Parameter path: the SQLite file; its directory must exist.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the file cannot be opened or migrated.
    public init(path: String) throws(CollectorError) {
        try self.init(opening: "the sync database file") { try DatabasePool(path: path) }
    }

    /// A store in memory, private to this value and gone with it: for tests.
    /// - Throws: ``CollectorError/Code/storageFailed`` if SQLite cannot open it.
    public static func inMemory() throws(CollectorError) -> SQLiteSyncStorage {
        try SQLiteSyncStorage(opening: "an in-memory sync database") { try DatabaseQueue() }
    }

    private init(opening what: String, _ open: () throws -> any DatabaseWriter) throws(CollectorError) {
        do {
            writer = try open()
            try Self.migrator.migrate(writer)
        } catch {
            throw CollectorError(.storageFailed, "could not open \(what): \(describeStorageError(error))", underlying: error)
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("sync-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_records(
                        type TEXT NOT NULL, id INTEGER NOT NULL, revision INTEGER NOT NULL, created INTEGER NOT NULL,
                        attributes TEXT, deleted_at INTEGER, PRIMARY KEY (type, id)) WITHOUT ROWID;
                    CREATE INDEX sync_records_revision ON sync_records(revision);
                    CREATE TABLE sync_references(
                        target_type TEXT NOT NULL, target_id INTEGER NOT NULL, type TEXT NOT NULL, id INTEGER NOT NULL,
                        PRIMARY KEY (target_type, target_id, type, id)) WITHOUT ROWID;
                    CREATE INDEX sync_references_source ON sync_references(type, id);
                    CREATE TABLE sync_outcomes(
                        client_id TEXT NOT NULL, sequence INTEGER NOT NULL, revision INTEGER, outcome TEXT NOT NULL,
                        received_at INTEGER NOT NULL, PRIMARY KEY (client_id, sequence)) WITHOUT ROWID;
                    CREATE TABLE sync_state(
                        id INTEGER PRIMARY KEY CHECK (id = 1), revision INTEGER NOT NULL, next_id INTEGER NOT NULL,
                        horizon INTEGER NOT NULL);
                    INSERT INTO sync_state(id, revision, next_id, horizon) VALUES (1, 0, 1, 0);
                    """)
        }
        migrator.registerMigration("sync-v2-devices") { db in
            try db.execute(sql: SyncDeviceQueries.createTable)
        }
        return migrator
    }

    public func apply(
        _ changeSet: SyncChangeSet, from identity: SyncIdentity, schemaVersion: Int64, rules: SyncRules, now: Int64
    ) async throws(CollectorError) -> SyncChangeSet {
        try await withStorageErrors("apply the change set") {
            try await writer.write { db in
                try SQLiteSyncApplier(db: db, rules: rules, identity: identity, now: now).apply(changeSet, schemaVersion: schemaVersion)
            }
        }
    }

    public func overview(recent: Int, devices: Int) async throws(CollectorError) -> SyncOverview {
        try await withStorageErrors("read the sync overview") {
            try await writer.read { db in
                typealias Queries = SyncOverview.Queries
                return SyncOverview(
                    revision: try Int64.fetchOne(db, sql: Queries.revision) ?? 0,
                    types: try Row.fetchAll(db, sql: Queries.types).map { SyncOverview.TypeCount(type: $0[0], live: $0[1], deleted: $0[2]) },
                    recent: try Row.fetchAll(db, sql: Queries.recent, arguments: [recent]).map {
                        SyncOverview.Outcome(clientID: $0[0], sequence: $0[1], revision: $0[2], outcome: $0[3], receivedAt: $0[4])
                    },
                    devices: try Row.fetchAll(db, sql: Queries.devices, arguments: [devices]).map {
                        SyncOverview.Device(clientID: $0[0], lastExchange: $0[1], changeSets: $0[2], conflicts: $0[3])
                    })
            }
        }
    }

    public func page(after maxRevision: Int64, cursor: String?, limit: Int) async throws(CollectorError) -> SyncAnswer {
        try await withStorageErrors("read the missed change sets") {
            try await writer.read { db in
                let state = try Row.fetchOne(db.cachedStatement(sql: "SELECT revision, horizon FROM sync_state WHERE id = 1"))!
                let current: Int64 = state["revision"]
                let plan = SyncPagePlan(maxRevision: maxRevision, cursor: SyncCursor(cursor), horizon: state["horizon"], current: current)
                // One pass in revision order, stopping at the page's end. Tombstones too, even in
                // a full copy: the device may hold a record from its own change set answered in
                // the same exchange, deleted since.
                var bound = SyncPageBound(limit: limit)
                var missed = SyncMissedChangeSets()
                try SyncPageRows.read(after: plan.position, in: db) { row in
                    guard bound.admit(revision: row.revision, bytes: row.attributes?.count ?? 0) else { return false }
                    missed.append(row.record, created: row.created)
                    return true
                }
                let end = bound.end(current: current)
                return plan.answer(end: end, current: current, changeSets: missed.changeSets)
            }
        }
    }

    public func pruneHistory(before cutoff: Int64) async throws(CollectorError) -> Int {
        try await withStorageErrors("forget old tombstones") {
            try await writer.write { db in
                let newest = try Int64.fetchOne(
                    db, sql: "SELECT MAX(revision) FROM sync_records WHERE deleted_at IS NOT NULL AND deleted_at < ?", arguments: [cutoff]
                )
                try db.execute(sql: "DELETE FROM sync_records WHERE deleted_at IS NOT NULL AND deleted_at < ?", arguments: [cutoff])
                let removed = db.changesCount
                if let newest {
                    try db.execute(sql: "UPDATE sync_state SET horizon = MAX(horizon, ?) WHERE id = 1", arguments: [newest])
                }
                // Each device's last outcome stays: it tells a sequence sent again from one never seen.
                try db.execute(
                    sql: """
                        DELETE FROM sync_outcomes WHERE received_at < ?
                        AND (client_id, sequence) NOT IN (SELECT client_id, MAX(sequence) FROM sync_outcomes GROUP BY client_id)
                        """, arguments: [cutoff])
                return removed
            }
        }
    }

    public func liveRecords() async throws(CollectorError) -> [SyncRecord] {
        try await withStorageErrors("read the records") {
            try await writer.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT type, id, revision, attributes FROM sync_records WHERE attributes IS NOT NULL ORDER BY type, id"
                ).map(Self.record)
            }
        }
    }

    /// A record from a row of `sync_records` (`type`, `id`, `revision`, `attributes`).
    static func record(_ row: Row) throws -> SyncRecord {
        try SyncRecord(type: row["type"], id: row["id"], revision: row["revision"], storedAttributes: row["attributes"])
    }
}

extension SQLiteSyncStorage {
    public func addDevice(_ device: SyncDevice) async throws(CollectorError) {
        let added = try await withStorageErrors("store the device credential") {
            try await writer.write { db in
                try String.fetchOne(
                    db, sql: SyncDeviceQueries.insert,
                    arguments: [device.clientID, device.user, device.storedRoles, device.secretHash, device.createdAt]) != nil
            }
        }
        if !added { throw SyncDeviceQueries.taken(device.clientID) }
    }

    public func device(clientID: String) async throws(CollectorError) -> SyncDevice? {
        try await withStorageErrors("read the device credential") {
            try await writer.read { db in
                try Row.fetchOne(db.cachedStatement(sql: SyncDeviceQueries.selectOne), arguments: [clientID]).map(Self.device)
            }
        }
    }

    public func devices() async throws(CollectorError) -> [SyncDevice] {
        try await withStorageErrors("read the device credentials") {
            try await writer.read { db in try Row.fetchAll(db, sql: SyncDeviceQueries.selectAll).map(Self.device) }
        }
    }

    public func revokeDevice(clientID: String, now: Int64) async throws(CollectorError) -> Bool {
        try await withStorageErrors("revoke the device credential") {
            try await writer.write { db in try String.fetchOne(db, sql: SyncDeviceQueries.revoke, arguments: [now, clientID]) != nil }
        }
    }

    private static func device(_ row: Row) -> SyncDevice {
        SyncDevice(
            clientID: row[0], user: row[1], roles: SyncDevice.roles(stored: row[2]), secretHash: row[3], createdAt: row[4], revokedAt: row[5])
    }
}

extension SQLiteSyncStorage {
    /// Every recorded outcome as (client, sequence, applied): for the sync torture's audit.
    package func outcomes() async throws(CollectorError) -> [(clientID: String, sequence: Int64, applied: Bool)] {
        try await withStorageErrors("read the outcomes") {
            try await writer.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT client_id, sequence, revision IS NOT NULL AS applied FROM sync_outcomes ORDER BY client_id, sequence"
                )
                .map { (clientID: $0["client_id"], sequence: $0["sequence"], applied: $0["applied"]) }
            }
        }
    }
}
