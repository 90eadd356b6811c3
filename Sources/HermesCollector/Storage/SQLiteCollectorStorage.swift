import Foundation
import GRDB
public import HermesWire

/// The collector's default store: one SQLite database through GRDB, zero setup.
///
/// A file opens as a WAL `DatabasePool` (reads do not wait for writes) with `synchronous =
/// NORMAL`: a committed upload survives the collector process dying, and the database never
/// corrupts, but the last commits before a power loss or kernel crash may be lost; ``inMemory()``
/// gives a private database for tests.
///
/// Concurrent ``store(_:)`` calls are committed in groups (`GroupCommit`): while one
/// transaction commits, the batches that arrive wait, then go together in the next one, each in
/// its own savepoint, at most 5,000 records per group. Each call returns its own
/// batch's outcome once that transaction committed; a batch that fails is rolled back alone.
///
/// The schema is created and migrated on open:
/// `events(id, namespace, report_id, monitor_type, create_time, meta, payload, device_id,
/// batch_id, received_at)` unique on `(namespace, report_id)`, indexed on
/// `(namespace, monitor_type, create_time)`, and `config(id = 1, document)`.
///
/// ```swift
/// let storage = try SQLiteCollectorStorage(path: "/var/lib/hermes/collector.sqlite")
/// ```
public struct SQLiteCollectorStorage: CollectorStorage {
    /// The most records one group commit takes (a group always takes at least one batch).
    static let maximumGroupRecords = 5_000

    /// The writer connection's settings, for ingest: a 32 MiB page cache (SQLite's default is
    /// 2 MB), and a checkpoint once the WAL holds 10,000 pages (~40 MB; SQLite's default is 1,000)
    /// so that a page written by many commits is copied back and synced once rather than many
    /// times (~30 % more records per second here), the WAL file cut back to 64 MiB afterwards.
    static let writerSettings = """
        PRAGMA cache_size = -32768;
        PRAGMA wal_autocheckpoint = 10000;
        PRAGMA journal_size_limit = 67108864;
        """

    /// The database (internal so that tests can reach it).
    let writer: any DatabaseWriter
    private let commits: GroupCommit<IngestBatch, StoreOutcome>

    /// Opens (or creates) the database file at `path`.
    /// - Parameter path: the SQLite file; its directory must exist.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the file cannot be opened or migrated.
    public init(path: String) throws(CollectorError) {
        try self.init(opening: "the database file") { try DatabasePool(path: path) }
    }

    /// A store in memory, private to this value and gone with it: for tests.
    /// - Throws: ``CollectorError/Code/storageFailed`` if SQLite cannot open it.
    public static func inMemory() throws(CollectorError) -> SQLiteCollectorStorage {
        try SQLiteCollectorStorage(opening: "an in-memory database") { try DatabaseQueue() }
    }

    private init(opening what: String, _ open: () throws -> any DatabaseWriter) throws(CollectorError) {
        let writer: any DatabaseWriter
        do {
            writer = try open()
            try writer.writeWithoutTransaction { try $0.execute(sql: Self.writerSettings) }
            try Self.migrator.migrate(writer)
        } catch {
            throw CollectorError(.storageFailed, "could not open \(what): \(describeStorageError(error))", underlying: error)
        }
        self.writer = writer
        commits = GroupCommit(maximumWeight: Self.maximumGroupRecords, weight: { $0.records.count }) { batches in
            await Self.commit(batches, to: writer)
        }
    }

    public func store(_ batch: IngestBatch) async throws -> StoreOutcome {
        try await withStorageErrors("store the batch") { try await commits.submit(batch) }
    }

    public func events(_ query: EventQuery) async throws -> EventPage {
        try await withStorageErrors("read events") {
            // One snapshot: the sizes decide how many rows fit, then those rows are read.
            try await writer.read { db in
                let (filter, arguments) = query.sqlFilter
                let sizes = try Int.fetchAll(
                    db,
                    sql: """
                        SELECT length(CAST(meta AS BLOB)) + COALESCE(length(payload), 0) FROM events\(filter)
                        ORDER BY \(query.sqlOrder) LIMIT ?
                        """,
                    arguments: arguments + [query.limit + 1]
                )
                let (count, hasMore) = EventPage.cut(sizes: sizes, limit: query.limit)
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT * FROM events\(filter) ORDER BY \(query.sqlOrder) LIMIT ?",
                    arguments: arguments + [count]
                )
                let events = try rows.map(Self.event)
                return EventPage(events: events, next: hasMore ? events.last.map(EventCursor.init(after:)) : nil)
            }
        }
    }

    public func count(_ query: EventQuery) async throws -> Int {
        try await withStorageErrors("count events") {
            try await writer.read { db in
                let (filter, arguments) = query.sqlFilter
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events\(filter)", arguments: arguments) ?? 0
            }
        }
    }

    public func loadConfiguration() async throws -> ConfigurationDocument? {
        let text = try await withStorageErrors("read the configuration") {
            try await writer.read { db in try String.fetchOne(db, sql: "SELECT document FROM config WHERE id = 1") }
        }
        guard let text else { return nil }
        do {
            return try ConfigurationDocument(jsonBytes: Array(text.utf8))
        } catch {
            throw CollectorError(.storageFailed, "the stored configuration is unreadable: \(error.message)", underlying: error)
        }
    }

    public func saveConfiguration(_ document: ConfigurationDocument) async throws {
        let text = String(decoding: document.jsonBytes(), as: UTF8.self)
        try await withStorageErrors("save the configuration") {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO config (id, document) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET document = excluded.document",
                    arguments: [text]
                )
            }
        }
    }

    /// A stored event from a row of `events` (every column).
    static func event(_ row: Row) throws -> StoredEvent {
        let metaText: String = row["meta"]
        let meta: JSONValue
        do {
            meta = try JSONValue(parsing: Array(metaText.utf8))
        } catch {
            throw CollectorError(.storageFailed, "a stored meta line is not valid JSON: \(error.message)", underlying: error)
        }
        let payload: Data? = row["payload"]
        return StoredEvent(
            namespace: row["namespace"],
            reportID: row["report_id"],
            monitorType: row["monitor_type"],
            createTime: row["create_time"],
            meta: meta,
            payload: payload.map { [UInt8]($0) },
            deviceID: row["device_id"],
            batchID: row["batch_id"],
            receivedAt: row["received_at"],
            appKeyID: row["app_key_id"],
            id: row["id"]
        )
    }

    private static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: events and config") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY,
                        namespace TEXT NOT NULL,
                        report_id TEXT NOT NULL,
                        monitor_type TEXT NOT NULL,
                        create_time INTEGER NOT NULL,
                        meta TEXT NOT NULL,
                        payload BLOB,
                        device_id TEXT,
                        batch_id TEXT,
                        received_at INTEGER NOT NULL,
                        UNIQUE (namespace, report_id)
                    );
                    CREATE INDEX events_by_type_and_time ON events (namespace, monitor_type, create_time);
                    CREATE TABLE config (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        document TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("console v1") { db in
            for statement in ConsoleSchema.statements(idColumn: "id INTEGER PRIMARY KEY") { try db.execute(sql: statement) }
            // The console's newest-first pages over every namespace (PostgreSQL has it from the start).
            try db.execute(sql: "CREATE INDEX events_by_time ON events (create_time, id)")
        }
        migrator.registerMigration("alerts v1", migrate: createAlertTables)
        migrator.registerMigration("crash groups v1", migrate: createCrashGroups)
        migrator.registerMigration("console v2: record facets, performance and delivery health rollups") { db in
            let backfill = ConsoleSchema.backfillFacets { key in
                let path = "'$.\"\(key)\"'"
                let text = "CASE json_type(meta, \(path)) WHEN 'text' THEN json_extract(meta, \(path)) END"
                // Stored metas are valid JSON objects; the test keeps a damaged file migratable.
                return """
                    CASE WHEN json_valid(meta) THEN (SELECT value FROM (SELECT \(text) AS value) WHERE value <> ''
                        AND length(CAST(value AS BLOB)) <= \(RecordFacets.maximumBytes) AND instr(CAST(value AS BLOB), x'00') = 0) END
                    """
            }
            for statement in ConsoleSchema.facetsAndRollups(backfill: backfill) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("events v2: app key id") { db in try db.execute(sql: "ALTER TABLE events ADD COLUMN app_key_id TEXT") }
        return migrator
    }()
}
