/// Alerts' tables in PostgreSQL, beside the collector's in the same database, all prefixed
/// `alert_`, with a ledger of their own (`alert_migrations`, see ``PostgresMigrator``).
///
/// `alert_firings` is unique on `dedupe_key`: instances recording the same firing at once store
/// it once. `alert_lease` holds the one claim of the evaluation.
enum PostgresAlertSchema {
    /// The ledger of applied alert migrations.
    static let ledger = "alert_migrations"

    static let migrations: [PostgresMigrator.Migration] = [
        (
            1, "alert rules, states, firings, lease",
            [
                """
                CREATE TABLE alert_rules (
                    id text PRIMARY KEY,
                    name text NOT NULL,
                    kind text NOT NULL,
                    enabled boolean NOT NULL,
                    webhook_url text,
                    secret text NOT NULL,
                    created_by text NOT NULL,
                    created_at bigint NOT NULL,
                    updated_by text NOT NULL,
                    updated_at bigint NOT NULL
                )
                """,
                """
                CREATE TABLE alert_states (
                    rule_id text PRIMARY KEY,
                    status text NOT NULL,
                    since bigint NOT NULL,
                    evaluated_at bigint NOT NULL
                )
                """,
                """
                CREATE TABLE alert_firings (
                    seq bigserial PRIMARY KEY,
                    id text NOT NULL UNIQUE,
                    rule_id text NOT NULL,
                    dedupe_key text NOT NULL UNIQUE,
                    time bigint NOT NULL,
                    payload text NOT NULL,
                    delivery_status text NOT NULL,
                    attempts bigint NOT NULL,
                    last_error text,
                    response_status bigint
                )
                """,
                "CREATE INDEX alert_firings_by_time ON alert_firings (time, seq)",
                "CREATE INDEX alert_firings_by_rule ON alert_firings (rule_id, time, seq)",
                """
                CREATE TABLE alert_lease (
                    id integer PRIMARY KEY CHECK (id = 1),
                    holder text NOT NULL,
                    expires_at bigint NOT NULL
                )
                """,
            ]
        )
    ]
}
