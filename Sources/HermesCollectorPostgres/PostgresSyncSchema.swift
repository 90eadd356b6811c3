import HermesCollector

/// Record sync's tables in PostgreSQL, beside the collector's in the same database, all prefixed
/// `sync_`, with a ledger of their own (`sync_migrations`, see ``PostgresMigrator``).
///
/// Names are `text COLLATE "C"`, so that records order by type byte for byte, as in SQLite.
/// Attributes are a JSON object's text (what the answers carry; cheaper than jsonb).
enum PostgresSyncSchema {
    /// The ledger of applied sync migrations.
    static let ledger = "sync_migrations"

    static let migrations: [PostgresMigrator.Migration] = [
        (
            1, "sync records, references, outcomes, state",
            [
                """
                CREATE TABLE sync_records (
                    type text COLLATE "C" NOT NULL,
                    id bigint NOT NULL,
                    revision bigint NOT NULL,
                    created bigint NOT NULL,
                    attributes text,
                    deleted_at bigint,
                    PRIMARY KEY (type, id)
                )
                """,
                "CREATE INDEX sync_records_revision ON sync_records (revision)",
                """
                CREATE TABLE sync_references (
                    target_type text COLLATE "C" NOT NULL,
                    target_id bigint NOT NULL,
                    type text COLLATE "C" NOT NULL,
                    id bigint NOT NULL,
                    PRIMARY KEY (target_type, target_id, type, id)
                )
                """,
                "CREATE INDEX sync_references_source ON sync_references (type, id)",
                """
                CREATE TABLE sync_outcomes (
                    client_id text NOT NULL,
                    sequence bigint NOT NULL,
                    revision bigint,
                    outcome text NOT NULL,
                    received_at bigint NOT NULL,
                    PRIMARY KEY (client_id, sequence)
                )
                """,
                """
                CREATE TABLE sync_state (
                    id integer PRIMARY KEY CHECK (id = 1),
                    revision bigint NOT NULL,
                    next_id bigint NOT NULL,
                    horizon bigint NOT NULL
                )
                """,
                "INSERT INTO sync_state (id, revision, next_id, horizon) VALUES (1, 0, 1, 0)",
            ]
        ),
        (2, "sync device credentials", [SyncDeviceQueries.createTable]),
    ]
}
