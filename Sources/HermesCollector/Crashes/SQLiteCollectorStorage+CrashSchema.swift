import GRDB

extension SQLiteCollectorStorage {
    /// The migration `crash groups v1`: the groups, one membership row per grouped crash record
    /// (keyed by the record's identity), the grouping's progress, and a partial index on `events`
    /// that only crash records enter (ingest of other records does not pay for it).
    static func createCrashGroups(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE crash_groups (
                    signature TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    culprit TEXT,
                    first_seen INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE crash_members (
                    namespace TEXT NOT NULL,
                    report_id TEXT NOT NULL,
                    create_time INTEGER NOT NULL,
                    signature TEXT NOT NULL,
                    user_id TEXT,
                    device_id TEXT,
                    app_version TEXT,
                    PRIMARY KEY (namespace, report_id, create_time)
                ) WITHOUT ROWID;
                CREATE INDEX crash_members_by_time ON crash_members (create_time, signature, user_id, device_id, app_version);
                CREATE INDEX crash_members_by_group ON crash_members (signature, create_time, user_id, device_id, app_version);
                CREATE TABLE crash_progress (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    received_until INTEGER NOT NULL,
                    last_id INTEGER NOT NULL
                );
                INSERT INTO crash_progress (id, received_until, last_id) VALUES (1, 0, 0);
                CREATE INDEX events_crashes_by_receipt ON events (received_at, id) WHERE \(CrashGroupingBatch.crashRecords);
                """)
    }
}
