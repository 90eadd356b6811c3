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
        (
            3, "console: record facets, performance and delivery health rollups",
            [
                // A value PostgreSQL's json cannot read (a NUL) is no facet rather than a failed
                // migration; a long one is none either (RecordFacets.text).
                """
                CREATE FUNCTION pg_temp.hermes_meta_text(meta text, key text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
                DECLARE
                    value text;
                BEGIN
                    value := CASE WHEN json_typeof(meta::json -> key) = 'string' THEN meta::json ->> key END;
                    RETURN CASE WHEN value <> '' AND octet_length(value) <= \(RecordFacets.maximumBytes) THEN value END;
                EXCEPTION WHEN others THEN
                    RETURN NULL;
                END
                $$
                """
            ] + ConsoleSchema.facetsAndRollups(backfill: ConsoleSchema.backfillFacets { "pg_temp.hermes_meta_text(meta, '\($0)')" })
                + ["DROP FUNCTION pg_temp.hermes_meta_text(text, text)"]
        ),
        (4, "events: app key id", ["ALTER TABLE events ADD COLUMN app_key_id text"]),
    ]

    /// The statement that stores a batch (prepared, see `InsertEventsStatement`): `EventRows` as
    /// arrays; answers one row, the count of rows that were new (one answer row per batch, not
    /// one per new row: less to send and decode).
    /// The same statement adds the new rows to the minute's counts (`record_minutes`), in key
    /// order so that concurrent batches lock those rows in one order.
    /// It also adds them to the performance rollup (`performance_rollup`) and their reported
    /// losses to `delivery_losses`: the cells and losses of every row are bound, and those of the
    /// new rows are summed, in key order too; and it keeps the devices' latest queue depths
    /// (`device_queues`, already reduced to one per device).
    /// Binds: namespaces, report ids, types, create times, metas, has-payload flags, payloads,
    /// then the batch's device id, batch id and receive time, then the user ids, session ids and
    /// app versions (empty for none), then the cells' namespaces, report ids, widths, starts,
    /// measures, keys, buckets, failures and milliseconds, then the losses' namespaces, report
    /// ids, hours, app versions, reasons and counts, then the queues' devices, times and depths,
    /// then the batch's app key id.
    static let insertEvents = """
        WITH inserted AS (
            INSERT INTO events (
                namespace, report_id, monitor_type, create_time, meta, payload, device_id, batch_id, received_at,
                user_id, session_id, app_version, app_key_id)
            SELECT r.namespace, r.report_id, r.monitor_type, r.create_time, r.meta,
                   CASE WHEN r.has_payload THEN r.payload END, $8, $9, $10,
                   NULLIF(r.user_id, ''), NULLIF(r.session_id, ''), NULLIF(r.app_version, ''), $32
            FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::text[], $6::bool[], $7::bytea[], $11::text[], $12::text[], $13::text[])
                 AS r(namespace, report_id, monitor_type, create_time, meta, has_payload, payload, user_id, session_id, app_version)
            ON CONFLICT (namespace, report_id, create_time) DO NOTHING
            RETURNING namespace, report_id, monitor_type
        ), rolled AS (
            INSERT INTO performance_rollup (width, start, measure, key, bucket, samples, failures, total_ms)
            SELECT c.width, c.start, c.measure, c.key, c.bucket, count(*), sum(c.failed), sum(c.ms)
            FROM unnest($14::text[], $15::text[], $16::int8[], $17::int8[], $18::text[], $19::text[], $20::int8[], $21::int8[], $22::float8[])
                 AS c(namespace, report_id, width, start, measure, key, bucket, failed, ms)
            JOIN inserted i ON i.namespace = c.namespace AND i.report_id = c.report_id
            GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
            ON CONFLICT (width, start, measure, key, bucket) DO UPDATE SET samples = performance_rollup.samples + excluded.samples,
                failures = performance_rollup.failures + excluded.failures, total_ms = performance_rollup.total_ms + excluded.total_ms
        ), lost AS (
            INSERT INTO delivery_losses (hour, app_version, reason, lost)
            SELECT l.hour, l.app_version, l.reason, sum(l.lost)
            FROM unnest($23::text[], $24::text[], $25::int8[], $26::text[], $27::text[], $28::int8[])
                 AS l(namespace, report_id, hour, app_version, reason, lost)
            JOIN inserted i ON i.namespace = l.namespace AND i.report_id = l.report_id
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ON CONFLICT (hour, app_version, reason) DO UPDATE SET lost = delivery_losses.lost + excluded.lost
        ), queued AS (
            INSERT INTO device_queues (device, reported_at, depth)
            SELECT * FROM unnest($29::text[], $30::int8[], $31::int8[])
            ON CONFLICT (device) DO UPDATE SET reported_at = excluded.reported_at, depth = excluded.depth
            WHERE excluded.reported_at >= device_queues.reported_at
        ), counted AS (
            INSERT INTO record_minutes (minute, namespace, monitor_type, records)
            SELECT $10 / 60000, namespace, monitor_type, count(*) FROM inserted
            GROUP BY namespace, monitor_type ORDER BY namespace, monitor_type
            ON CONFLICT (minute, namespace, monitor_type) DO UPDATE SET records = record_minutes.records + excluded.records
        )
        SELECT count(*) FROM inserted
        """
}
