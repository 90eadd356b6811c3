public import HermesCollector
import Logging
import PostgresNIO

extension PostgresCollectorStorage {
    /// The columns of a rule, in the order ``alertRule(_:)`` decodes them.
    private static let ruleColumns = "id, name, kind, enabled, webhook_url, secret, created_by, created_at, updated_by, updated_at"
    /// The columns of a firing, in the order ``alertFiring(_:)`` decodes them.
    private static let firingColumns = "dedupe_key, payload, delivery_status, attempts, last_error, response_status"

    private typealias RuleRow = (String, String, String, Bool, String?, String, String, Int64, String, Int64)
    private typealias FiringRow = (String, String, String, Int64, String?, Int64?)

    public func alertRules() async throws(CollectorError) -> [AlertRule] {
        try await PostgresErrors.run("read the alert rules") {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: "SELECT \(Self.ruleColumns) FROM alert_rules ORDER BY created_at, id"), logger: logger)
            var rules: [AlertRule] = []
            for try await row in rows.decode(RuleRow.self) { rules.append(try Self.alertRule(row)) }
            return rules
        }
    }

    public func alertRule(id: String) async throws(CollectorError) -> AlertRule? {
        try await PostgresErrors.run("read the alert rule") {
            var binds = PostgresBindings(capacity: 1)
            binds.append(id)
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: "SELECT \(Self.ruleColumns) FROM alert_rules WHERE id = $1", binds: binds), logger: logger)
            for try await row in rows.decode(RuleRow.self) { return try Self.alertRule(row) }
            return nil
        }
    }

    public func saveAlertRule(_ rule: AlertRule) async throws(CollectorError) {
        try await PostgresErrors.run("save the alert rule") {
            try await client.query(
                """
                INSERT INTO alert_rules (id, name, kind, enabled, webhook_url, secret, created_by, created_at, updated_by, updated_at)
                VALUES (\(rule.id), \(rule.name), \(rule.storedKind), \(rule.isEnabled), \(rule.webhookURL), \(rule.secret),
                        \(rule.createdBy), \(rule.createdAt), \(rule.updatedBy), \(rule.updatedAt))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, kind = excluded.kind, enabled = excluded.enabled,
                    webhook_url = excluded.webhook_url, secret = excluded.secret, created_by = excluded.created_by,
                    created_at = excluded.created_at, updated_by = excluded.updated_by, updated_at = excluded.updated_at
                """, logger: logger)
        }
    }

    public func deleteAlertRule(id: String) async throws(CollectorError) -> Bool {
        try await PostgresErrors.run("delete the alert rule") {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("DELETE FROM alert_states WHERE rule_id = \(id)", logger: logger)
                let deleted = try await connection.query("DELETE FROM alert_rules WHERE id = \(id) RETURNING 1", logger: logger)
                for try await _ in deleted { return true }
                return false
            }
        }
    }

    public func alertStates() async throws(CollectorError) -> [String: AlertRuleState] {
        try await PostgresErrors.run("read the alert states") {
            let rows = try await client.query("SELECT rule_id, status, since, evaluated_at FROM alert_states", logger: logger)
            var states: [String: AlertRuleState] = [:]
            for try await (ruleID, status, since, evaluatedAt) in rows.decode((String, String, Int64, Int64).self) {
                states[ruleID] = AlertRuleState(
                    ruleID: ruleID, status: AlertRuleState.Status(rawValue: status) ?? .ok, since: since, evaluatedAt: evaluatedAt)
            }
            return states
        }
    }

    public func markAlertEvaluated(ruleID: String, at now: Int64) async throws(CollectorError) {
        try await PostgresErrors.run("note the alert evaluation") {
            try await client.query(
                """
                INSERT INTO alert_states (rule_id, status, since, evaluated_at) VALUES (\(ruleID), 'ok', \(now), \(now))
                ON CONFLICT (rule_id) DO UPDATE SET evaluated_at = excluded.evaluated_at
                """, logger: logger)
        }
    }

    public func recordAlertFiring(_ firing: AlertFiring, state: AlertRuleState?) async throws(CollectorError) -> Bool {
        try await PostgresErrors.run("record the alert firing") {
            try await client.withTransaction(logger: logger) { connection in
                let delivery = firing.delivery
                let inserted = try await connection.query(
                    """
                    INSERT INTO alert_firings (id, rule_id, dedupe_key, time, payload, delivery_status, attempts, last_error, response_status)
                    VALUES (\(firing.id), \(firing.ruleID), \(firing.dedupeKey), \(firing.payload.time), \(firing.storedPayload),
                            \(delivery.status.rawValue), \(delivery.attempts), \(delivery.lastError), \(delivery.responseStatus))
                    ON CONFLICT (dedupe_key) DO NOTHING RETURNING 1
                    """, logger: logger)
                var isNew = false
                for try await _ in inserted { isNew = true }
                if isNew, let state {
                    try await connection.query(
                        """
                        INSERT INTO alert_states (rule_id, status, since, evaluated_at)
                        VALUES (\(state.ruleID), \(state.status.rawValue), \(state.since), \(state.evaluatedAt))
                        ON CONFLICT (rule_id) DO UPDATE SET status = excluded.status, since = excluded.since, evaluated_at = excluded.evaluated_at
                        """, logger: logger)
                }
                return isNew
            }
        }
    }

    public func updateAlertDelivery(firingID: String, _ delivery: AlertDelivery) async throws(CollectorError) {
        try await PostgresErrors.run("record the alert delivery") {
            try await client.query(
                """
                UPDATE alert_firings SET delivery_status = \(delivery.status.rawValue), attempts = \(delivery.attempts),
                    last_error = \(delivery.lastError), response_status = \(delivery.responseStatus)
                WHERE id = \(firingID)
                """, logger: logger)
        }
    }

    public func alertFirings(ruleID: String?, limit: Int) async throws(CollectorError) -> [AlertFiring] {
        try await PostgresErrors.run("read the alert firings") {
            var binds = PostgresBindings(capacity: 2)
            binds.append(limit)
            var filter = ""
            if let ruleID {
                binds.append(ruleID)
                filter = " WHERE rule_id = $2"
            }
            let rows = try await client.query(
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.firingColumns) FROM alert_firings\(filter) ORDER BY time DESC, seq DESC LIMIT $1", binds: binds),
                logger: logger)
            var firings: [AlertFiring] = []
            for try await row in rows.decode(FiringRow.self) { firings.append(try Self.alertFiring(row)) }
            return firings
        }
    }

    public func claimAlertEvaluation(holder: String, now: Int64, until: Int64) async throws(CollectorError) -> Bool {
        try await PostgresErrors.run("claim the alert evaluation") {
            let claimed = try await client.query(
                """
                INSERT INTO alert_lease (id, holder, expires_at) VALUES (1, \(holder), \(until))
                ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE alert_lease.holder = excluded.holder OR alert_lease.expires_at <= \(now)
                RETURNING 1
                """, logger: logger)
            for try await _ in claimed { return true }
            return false
        }
    }

    private static func alertRule(_ row: RuleRow) throws(CollectorError) -> AlertRule {
        try AlertRule(
            id: row.0, name: row.1, storedKind: row.2, isEnabled: row.3, webhookURL: row.4, secret: row.5, createdBy: row.6, createdAt: row.7,
            updatedBy: row.8, updatedAt: row.9)
    }

    private static func alertFiring(_ row: FiringRow) throws(CollectorError) -> AlertFiring {
        try AlertFiring(
            storedPayload: row.1, dedupeKey: row.0, deliveryStatus: row.2, attempts: Int(row.3), lastError: row.4, responseStatus: row.5.map(Int.init)
        )
    }
}
