import HermesCollector

/// The crash groups' tables in PostgreSQL, with a ledger of their own (`crash_migrations`, see
/// ``PostgresMigrator``), applied after the collector's own: the groups, one membership row per
/// grouped crash record (keyed by the record's identity), the grouping's progress, and a partial
/// index on `events` (on every day's partition) that only crash records enter.
enum PostgresCrashSchema {
    /// The ledger of applied crash group migrations.
    static let ledger = "crash_migrations"

    static let migrations: [PostgresMigrator.Migration] = [
        (
            1, "crash groups, members, progress",
            [
                """
                CREATE TABLE crash_groups (
                    signature text PRIMARY KEY,
                    title text NOT NULL,
                    culprit text,
                    first_seen bigint NOT NULL
                )
                """,
                """
                CREATE TABLE crash_members (
                    namespace text NOT NULL,
                    report_id text NOT NULL,
                    create_time bigint NOT NULL,
                    signature text NOT NULL,
                    user_id text,
                    device_id text,
                    app_version text,
                    PRIMARY KEY (namespace, report_id, create_time)
                )
                """,
                "CREATE INDEX crash_members_by_time ON crash_members (create_time, signature) INCLUDE (user_id, device_id, app_version)",
                "CREATE INDEX crash_members_by_group ON crash_members (signature, create_time) INCLUDE (user_id, device_id, app_version)",
                """
                CREATE TABLE crash_progress (
                    id integer PRIMARY KEY CHECK (id = 1),
                    received_until bigint NOT NULL,
                    last_id bigint NOT NULL
                )
                """,
                "INSERT INTO crash_progress (id, received_until, last_id) VALUES (1, 0, 0)",
                "CREATE INDEX events_crashes_by_receipt ON events (received_at, id) WHERE \(CrashGroupingBatch.crashRecords)",
            ]
        )
    ]
}
