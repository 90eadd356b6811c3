public import HermesCollector
import HermesWire
import Logging
import PostgresNIO

extension PostgresCollectorStorage {
    public func consoleUsers() async throws -> [ConsoleUser] {
        try await users("SELECT name, role, password_hash, created_at FROM console_users ORDER BY name", PostgresBindings())
    }

    public func consoleUser(named name: String) async throws -> ConsoleUser? {
        var binds = PostgresBindings()
        binds.append(name)
        return try await users("SELECT name, role, password_hash, created_at FROM console_users WHERE name = $1", binds).first
    }

    public func saveConsoleUser(_ user: ConsoleUser) async throws {
        var binds = PostgresBindings()
        binds.append(user.name)
        binds.append(user.role.rawValue)
        binds.append(user.passwordHash)
        binds.append(user.createdAt)
        try await execute(
            "save a console user",
            """
            INSERT INTO console_users (name, role, password_hash, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (name) DO UPDATE SET role = excluded.role, password_hash = excluded.password_hash
            """, binds)
    }

    public func removeConsoleUser(named name: String) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(name)
        return try await PostgresErrors.run("remove a console user") {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: "DELETE FROM console_users WHERE name = $1 RETURNING 1", binds: binds), logger: logger)
            var removed = false
            for try await _ in rows { removed = true }
            return removed
        }
    }

    public func createConsoleSession(_ session: ConsoleSession, now: Int64) async throws {
        var expired = PostgresBindings()
        expired.append(now)
        try await execute("forget ended console sessions", "DELETE FROM console_sessions WHERE expires_at <= $1", expired)
        var binds = PostgresBindings()
        binds.append(session.tokenHash)
        binds.append(session.userName)
        binds.append(session.csrfToken)
        binds.append(session.expiresAt)
        try await execute(
            "save a console session", "INSERT INTO console_sessions (token_hash, user_name, csrf_token, expires_at) VALUES ($1, $2, $3, $4)", binds)
    }

    public func consoleSession(tokenHash: String, now: Int64) async throws -> ConsoleSession? {
        var binds = PostgresBindings()
        binds.append(tokenHash)
        binds.append(now)
        return try await PostgresErrors.run("read a console session") {
            let rows = try await client.query(PostgresQuery(unsafeSQL: Self.numbered(ConsoleQueries.session), binds: binds), logger: logger)
            for try await (hash, user, csrf, expires, role) in rows.decode((String, String, String, Int64, String).self) {
                guard let role = ConsoleRole(rawValue: role) else { return nil }
                return ConsoleSession(tokenHash: hash, userName: user, role: role, csrfToken: csrf, expiresAt: expires)
            }
            return nil
        }
    }

    public func removeConsoleSession(tokenHash: String) async throws {
        var binds = PostgresBindings()
        binds.append(tokenHash)
        try await execute("end a console session", "DELETE FROM console_sessions WHERE token_hash = $1", binds)
    }

    public func appendConfigurationChange(_ change: ConfigurationChange) async throws {
        var binds = PostgresBindings()
        binds.append(change.namespace)
        binds.append(change.revision)
        binds.append(change.author)
        binds.append(change.changedAt)
        binds.append(try change.before?.jsonString())
        binds.append(try change.after?.jsonString())
        try await execute(
            "save a configuration change",
            "INSERT INTO config_changes (namespace, revision, author, changed_at, before, after) VALUES ($1, $2, $3, $4, $5, $6)", binds)
    }

    public func configurationChanges(namespace: String?, limit: Int) async throws -> [ConfigurationChange] {
        var binds = PostgresBindings()
        binds.append(namespace)
        binds.append(limit)
        return try await changes("WHERE ($1::text IS NULL OR namespace = $1) ORDER BY id DESC LIMIT $2", binds)
    }

    public func configurationChange(id: Int64) async throws -> ConfigurationChange? {
        var binds = PostgresBindings()
        binds.append(id)
        return try await changes("WHERE id = $1", binds).first
    }

    public func arrivals(_ query: EventQuery, receivedSince: Int64) async throws -> [StoredEvent] {
        var query = query
        query.after = nil
        var (filter, binds) = query.postgresFilter
        binds.append(receivedSince)
        binds.append(query.limit)
        let sql = """
            SELECT \(Self.eventColumns) FROM events\(filter)\(filter.isEmpty ? " WHERE" : " AND") received_at >= $\(binds.count - 1)
            ORDER BY received_at, id LIMIT $\(binds.count)
            """
        return try await PostgresErrors.run("read new records") { try await fetchEvents(sql, binds) }
    }

    public func recordMinutes(since minute: Int64) async throws -> [RecordMinute] {
        var binds = PostgresBindings()
        binds.append(minute)
        return try await PostgresErrors.run("read the record counts") {
            let rows = try await client.query(PostgresQuery(unsafeSQL: Self.numbered(ConsoleQueries.recordMinutes), binds: binds), logger: logger)
            var minutes: [RecordMinute] = []
            for try await (minute, namespace, type, records) in rows.decode((Int64, String, String, Int64).self) {
                minutes.append(RecordMinute(minute: minute, namespace: namespace, monitorType: type, records: records))
            }
            return minutes
        }
    }

    public func performanceRollup(width: Int64, from: Int64, until: Int64, slotMinutes: Int64) async throws -> [PerformanceRollupRow] {
        var binds = PostgresBindings()
        for value in [from, slotMinutes, width, from, until] { binds.append(value) }
        return try await PostgresErrors.run("read the performance rollup") {
            let rows = try await client.query(PostgresQuery(unsafeSQL: Self.numbered(ConsoleSchema.readPerformance), binds: binds), logger: logger)
            var cells: [PerformanceRollupRow] = []
            for try await (slot, measure, key, bucket, samples, failures, milliseconds) in rows.decode(
                (Int64, String, String, Int64, Int64, Int64, Double).self)
            {
                guard let measure = PerformanceSample.Measure(rawValue: measure) else { continue }
                cells.append(
                    PerformanceRollupRow(
                        slot: slot, measure: measure, key: key, bucket: bucket,
                        totals: PerformanceTotals(samples: samples, failures: failures, milliseconds: milliseconds)))
            }
            return cells
        }
    }

    public func deliveryLosses(sinceHour: Int64) async throws -> [DeliveryLoss] {
        var binds = PostgresBindings()
        binds.append(sinceHour)
        return try await PostgresErrors.run("read the records lost on devices") {
            let rows = try await client.query(PostgresQuery(unsafeSQL: Self.numbered(ConsoleSchema.readLosses), binds: binds), logger: logger)
            var losses: [DeliveryLoss] = []
            for try await (version, reason, lost) in rows.decode((String, String, Int64).self) {
                losses.append(DeliveryLoss(appVersion: version, reason: reason, lost: lost))
            }
            return losses
        }
    }

    public func queuedOnDevices(reportedSince: Int64) async throws -> QueuedOnDevices {
        var binds = PostgresBindings()
        binds.append(reportedSince)
        return try await PostgresErrors.run("read the records queued on devices") {
            let rows = try await client.query(PostgresQuery(unsafeSQL: Self.numbered(ConsoleSchema.readQueues), binds: binds), logger: logger)
            for try await (devices, records) in rows.decode((Int64, Int64).self) {
                return QueuedOnDevices(devices: devices, records: records)
            }
            return QueuedOnDevices(devices: 0, records: 0)
        }
    }

    /// `sql` with its `?` placeholders numbered `$1`, `$2`… in order.
    static func numbered(_ sql: String) -> String {
        var number = 0
        var result = ""
        for character in sql {
            guard character == "?" else {
                result.append(character)
                continue
            }
            number += 1
            result += "$\(number)"
        }
        return result
    }

    private func execute(_ action: String, _ sql: String, _ binds: PostgresBindings) async throws {
        try await PostgresErrors.run(action) {
            try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        }
    }

    private func users(_ sql: String, _ binds: PostgresBindings) async throws -> [ConsoleUser] {
        try await PostgresErrors.run("read the console users") {
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            var users: [ConsoleUser] = []
            for try await (name, role, hash, created) in rows.decode((String, String, String, Int64).self) {
                users.append(ConsoleUser(name: name, role: ConsoleRole(rawValue: role) ?? .viewer, passwordHash: hash, createdAt: created))
            }
            return users
        }
    }

    private func changes(_ filter: String, _ binds: PostgresBindings) async throws -> [ConfigurationChange] {
        try await PostgresErrors.run("read configuration changes") {
            let sql = "SELECT id, namespace, revision, author, changed_at, before, after FROM config_changes \(filter)"
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            var changes: [ConfigurationChange] = []
            for try await (id, namespace, revision, author, changedAt, before, after) in rows.decode(
                (Int64, String, Int, String, Int64, String?, String?).self)
            {
                changes.append(
                    ConfigurationChange(
                        id: id, namespace: namespace, revision: revision, author: author, changedAt: changedAt,
                        before: try before.map { try JSONValue(parsing: Array($0.utf8)) },
                        after: try after.map { try JSONValue(parsing: Array($0.utf8)) }))
            }
            return changes
        }
    }
}
