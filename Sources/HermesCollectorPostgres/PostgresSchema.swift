import HermesCollector

/// The collector's tables in PostgreSQL, as numbered migrations applied once each at start,
/// under an advisory lock so that instances starting together apply them once.
///
/// `events` is partitioned by range of `create_time`, the record's own `CREATE_TIME` (a resend
/// carries the same value), one partition per UTC day (`events_YYYYMMDD`, made ahead of time)
/// plus `events_default` for times outside them. A unique key on a partitioned table must hold
/// the partition column, so the key is `(namespace, report_id, create_time)`: the same record,
/// resent by any device to any instance, has the same three values, lands in the same partition
/// and is stored once. Meta is `text` (what the collector returns verbatim; cheaper than jsonb).
enum PostgresSchema {
    /// Locks taken with `pg_advisory_xact_lock` (or tried with `pg_try_advisory_xact_lock`): one per
    /// kind of change every instance may attempt.
    enum Lock: Int64 {
        case migrations = 0x4865_726D_6573_01
        case partitions = 0x4865_726D_6573_02
        case configuration = 0x4865_726D_6573_03
        /// Held (tried, never waited for) by a crash grouping step: one instance groups at a time.
        case crashGroups = 0x4865_726D_6573_04
    }

    /// The channel a configuration save notifies, with the new revision as its payload.
    static let configurationChannel = "hermes_configuration"

    /// Each migration's version, name and statements (one statement per string).
    static let migrations: [PostgresMigrator.Migration] = [
        (
            1, "events partitioned by day, config",
            [
                """
                CREATE TABLE events (
                    id bigserial NOT NULL,
                    namespace text NOT NULL,
                    report_id text NOT NULL,
                    monitor_type text NOT NULL,
                    create_time bigint NOT NULL,
                    meta text NOT NULL,
                    payload bytea,
                    device_id text,
                    batch_id text,
                    received_at bigint NOT NULL,
                    UNIQUE (namespace, report_id, create_time)
                ) PARTITION BY RANGE (create_time)
                """,
                "CREATE TABLE events_default PARTITION OF events DEFAULT",
                "CREATE INDEX events_by_type_and_time ON events (namespace, monitor_type, create_time, id)",
                "CREATE INDEX events_by_time ON events (create_time, id)",
                """
                CREATE TABLE config (
                    id integer PRIMARY KEY CHECK (id = 1),
                    revision bigint NOT NULL,
                    document text NOT NULL,
                    saved_at timestamptz NOT NULL DEFAULT now()
                )
                """,
            ]
        ),
        (
            2, "console: users, sessions, configuration changes, record minutes, arrival index",
            ConsoleSchema.statements(idColumn: "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
        ),
    ]

    /// The statement that stores a batch: `EventRows` as arrays; answers one row, the count of
    /// rows that were new (one answer row per batch, not one per new row: less to send and decode).
    /// The same statement adds the new rows to the minute's counts (`record_minutes`), in key
    /// order so that concurrent batches lock those rows in one order.
    /// Binds: namespaces, report ids, types, create times, metas, has-payload flags, payloads,
    /// then the batch's device id, batch id and receive time.
    static let insertEvents = """
        WITH inserted AS (
            INSERT INTO events (namespace, report_id, monitor_type, create_time, meta, payload, device_id, batch_id, received_at)
            SELECT r.namespace, r.report_id, r.monitor_type, r.create_time, r.meta,
                   CASE WHEN r.has_payload THEN r.payload END, $8, $9, $10
            FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::text[], $6::bool[], $7::bytea[])
                 AS r(namespace, report_id, monitor_type, create_time, meta, has_payload, payload)
            ON CONFLICT (namespace, report_id, create_time) DO NOTHING
            RETURNING namespace, monitor_type
        ), counted AS (
            INSERT INTO record_minutes (minute, namespace, monitor_type, records)
            SELECT $10 / 60000, namespace, monitor_type, count(*) FROM inserted
            GROUP BY namespace, monitor_type ORDER BY namespace, monitor_type
            ON CONFLICT (minute, namespace, monitor_type) DO UPDATE SET records = record_minutes.records + excluded.records
        )
        SELECT count(*) FROM inserted
        """
}
