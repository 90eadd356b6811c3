import GRDB

/// Alerts in SQLite: `alert_rules` (the kind as JSON text), `alert_states` one row per
/// evaluated rule, `alert_firings` unique on `id` and on `dedupe_key`, and `alert_lease`, the
/// evaluation claim (one row).
extension SQLiteCollectorStorage {
    /// The body of the migration `alerts v1`.
    static func createAlertTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE alert_rules (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    enabled INTEGER NOT NULL,
                    webhook_url TEXT,
                    secret TEXT NOT NULL,
                    created_by TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_by TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE alert_states (
                    rule_id TEXT PRIMARY KEY,
                    status TEXT NOT NULL,
                    since INTEGER NOT NULL,
                    evaluated_at INTEGER NOT NULL
                );
                CREATE TABLE alert_firings (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    rule_id TEXT NOT NULL,
                    dedupe_key TEXT NOT NULL UNIQUE,
                    time INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    delivery_status TEXT NOT NULL,
                    attempts INTEGER NOT NULL,
                    last_error TEXT,
                    response_status INTEGER
                );
                CREATE INDEX alert_firings_by_time ON alert_firings (time, seq);
                CREATE INDEX alert_firings_by_rule ON alert_firings (rule_id, time, seq);
                CREATE TABLE alert_lease (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    holder TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                """)
    }

    public func alertRules() async throws(CollectorError) -> [AlertRule] {
        try await withStorageErrors("read the alert rules") {
            try await writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM alert_rules ORDER BY created_at, id").map(Self.alertRule) }
        }
    }

    public func alertRule(id: String) async throws(CollectorError) -> AlertRule? {
        try await withStorageErrors("read the alert rule") {
            try await writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM alert_rules WHERE id = ?", arguments: [id]).map(Self.alertRule) }
        }
    }

    public func saveAlertRule(_ rule: AlertRule) async throws(CollectorError) {
        try await withStorageErrors("save the alert rule") {
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO alert_rules
                            (id, name, kind, enabled, webhook_url, secret, created_by, created_at, updated_by, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        rule.id, rule.name, rule.storedKind, rule.isEnabled, rule.webhookURL, rule.secret, rule.createdBy, rule.createdAt,
                        rule.updatedBy, rule.updatedAt,
                    ])
            }
        }
    }

    public func deleteAlertRule(id: String) async throws(CollectorError) -> Bool {
        try await withStorageErrors("delete the alert rule") {
            try await writer.write { db in
                try db.execute(sql: "DELETE FROM alert_states WHERE rule_id = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM alert_rules WHERE id = ?", arguments: [id])
                return db.changesCount > 0
            }
        }
    }

    public func alertStates() async throws(CollectorError) -> [String: AlertRuleState] {
        try await withStorageErrors("read the alert states") {
            try await writer.read { db in
                var states: [String: AlertRuleState] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT rule_id, status, since, evaluated_at FROM alert_states") {
                    let status: String = row["status"]
                    let state = AlertRuleState(
                        ruleID: row["rule_id"], status: AlertRuleState.Status(rawValue: status) ?? .ok, since: row["since"],
                        evaluatedAt: row["evaluated_at"])
                    states[state.ruleID] = state
                }
                return states
            }
        }
    }

    public func markAlertEvaluated(ruleID: String, at now: Int64) async throws(CollectorError) {
        try await withStorageErrors("note the alert evaluation") {
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO alert_states (rule_id, status, since, evaluated_at) VALUES (?, 'ok', ?, ?)
                        ON CONFLICT (rule_id) DO UPDATE SET evaluated_at = excluded.evaluated_at
                        """,
                    arguments: [ruleID, now, now])
            }
        }
    }

    public func recordAlertFiring(_ firing: AlertFiring, state: AlertRuleState?) async throws(CollectorError) -> Bool {
        try await withStorageErrors("record the alert firing") {
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO alert_firings (id, rule_id, dedupe_key, time, payload, delivery_status, attempts, last_error, response_status)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING
                        """,
                    arguments: [
                        firing.id, firing.ruleID, firing.dedupeKey, firing.payload.time, firing.storedPayload, firing.delivery.status.rawValue,
                        firing.delivery.attempts, firing.delivery.lastError, firing.delivery.responseStatus,
                    ])
                guard db.changesCount > 0 else { return false }
                if let state {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO alert_states (rule_id, status, since, evaluated_at) VALUES (?, ?, ?, ?)",
                        arguments: [state.ruleID, state.status.rawValue, state.since, state.evaluatedAt])
                }
                return true
            }
        }
    }

    public func updateAlertDelivery(firingID: String, _ delivery: AlertDelivery) async throws(CollectorError) {
        try await withStorageErrors("record the alert delivery") {
            try await writer.write { db in
                try db.execute(
                    sql: "UPDATE alert_firings SET delivery_status = ?, attempts = ?, last_error = ?, response_status = ? WHERE id = ?",
                    arguments: [delivery.status.rawValue, delivery.attempts, delivery.lastError, delivery.responseStatus, firingID])
            }
        }
    }

    public func alertFirings(ruleID: String?, limit: Int) async throws(CollectorError) -> [AlertFiring] {
        try await withStorageErrors("read the alert firings") {
            try await writer.read { db in
                let columns = "SELECT dedupe_key, payload, delivery_status, attempts, last_error, response_status FROM alert_firings"
                let rows =
                    if let ruleID {
                        try Row.fetchAll(db, sql: "\(columns) WHERE rule_id = ? ORDER BY time DESC, seq DESC LIMIT ?", arguments: [ruleID, limit])
                    } else {
                        try Row.fetchAll(db, sql: "\(columns) ORDER BY time DESC, seq DESC LIMIT ?", arguments: [limit])
                    }
                return try rows.map { row in
                    try AlertFiring(
                        storedPayload: row["payload"], dedupeKey: row["dedupe_key"], deliveryStatus: row["delivery_status"],
                        attempts: row["attempts"], lastError: row["last_error"], responseStatus: row["response_status"])
                }
            }
        }
    }

    public func claimAlertEvaluation(holder: String, now: Int64, until: Int64) async throws(CollectorError) -> Bool {
        try await withStorageErrors("claim the alert evaluation") {
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO alert_lease (id, holder, expires_at) VALUES (1, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                        WHERE alert_lease.holder = excluded.holder OR alert_lease.expires_at <= ?
                        """,
                    arguments: [holder, until, now])
                return db.changesCount > 0
            }
        }
    }

    private static func alertRule(_ row: Row) throws -> AlertRule {
        try AlertRule(
            id: row["id"], name: row["name"], storedKind: row["kind"], isEnabled: row["enabled"], webhookURL: row["webhook_url"],
            secret: row["secret"], createdBy: row["created_by"], createdAt: row["created_at"], updatedBy: row["updated_by"],
            updatedAt: row["updated_at"])
    }
}
