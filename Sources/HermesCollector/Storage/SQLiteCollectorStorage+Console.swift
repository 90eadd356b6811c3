import Foundation
import GRDB
import HermesWire

extension SQLiteCollectorStorage {
    public func consoleUsers() async throws -> [ConsoleUser] {
        try await withStorageErrors("read the console users") {
            try await writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM console_users ORDER BY name").map(Self.user) }
        }
    }

    public func consoleUser(named name: String) async throws -> ConsoleUser? {
        try await withStorageErrors("read a console user") {
            try await writer.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM console_users WHERE name = ?", arguments: [name]).map(Self.user)
            }
        }
    }

    public func saveConsoleUser(_ user: ConsoleUser) async throws {
        try await withStorageErrors("save a console user") {
            try await writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO console_users (name, role, password_hash, created_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (name) DO UPDATE SET role = excluded.role, password_hash = excluded.password_hash
                        """,
                    arguments: [user.name, user.role.rawValue, user.passwordHash, user.createdAt])
            }
        }
    }

    public func removeConsoleUser(named name: String) async throws -> Bool {
        try await withStorageErrors("remove a console user") {
            try await writer.write { db in
                try db.execute(sql: "DELETE FROM console_sessions WHERE user_name = ?", arguments: [name])
                try db.execute(sql: "DELETE FROM console_users WHERE name = ?", arguments: [name])
                return db.changesCount > 0
            }
        }
    }

    public func createConsoleSession(_ session: ConsoleSession, now: Int64) async throws {
        try await withStorageErrors("save a console session") {
            try await writer.write { db in
                try db.execute(sql: "DELETE FROM console_sessions WHERE expires_at <= ?", arguments: [now])
                try db.execute(
                    sql: "INSERT INTO console_sessions (token_hash, user_name, csrf_token, expires_at) VALUES (?, ?, ?, ?)",
                    arguments: [session.tokenHash, session.userName, session.csrfToken, session.expiresAt])
            }
        }
    }

    public func consoleSession(tokenHash: String, now: Int64) async throws -> ConsoleSession? {
        try await withStorageErrors("read a console session") {
            try await writer.read { db in
                try Row.fetchOne(db, sql: ConsoleQueries.session, arguments: [tokenHash, now]).flatMap(Self.session)
            }
        }
    }

    public func removeConsoleSession(tokenHash: String) async throws {
        try await withStorageErrors("end a console session") {
            try await writer.write { db in try db.execute(sql: "DELETE FROM console_sessions WHERE token_hash = ?", arguments: [tokenHash]) }
        }
    }

    public func appendConfigurationChange(_ change: ConfigurationChange) async throws {
        try await withStorageErrors("save a configuration change") {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO config_changes (namespace, revision, author, changed_at, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        change.namespace, change.revision, change.author, change.changedAt, try change.before?.jsonString(),
                        try change.after?.jsonString(),
                    ])
            }
        }
    }

    public func configurationChanges(namespace: String?, limit: Int) async throws -> [ConfigurationChange] {
        try await withStorageErrors("read configuration changes") {
            try await writer.read { db in
                let rows =
                    if let namespace {
                        try Row.fetchAll(
                            db, sql: "SELECT * FROM config_changes WHERE namespace = ? ORDER BY id DESC LIMIT ?", arguments: [namespace, limit])
                    } else {
                        try Row.fetchAll(db, sql: "SELECT * FROM config_changes ORDER BY id DESC LIMIT ?", arguments: [limit])
                    }
                return try rows.map(Self.change)
            }
        }
    }

    public func configurationChange(id: Int64) async throws -> ConfigurationChange? {
        try await withStorageErrors("read a configuration change") {
            try await writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM config_changes WHERE id = ?", arguments: [id]).map(Self.change) }
        }
    }

    public func arrivals(_ query: EventQuery, receivedSince: Int64) async throws -> [StoredEvent] {
        var query = query
        query.after = nil
        let (filter, arguments) = query.sqlFilter
        let limit = query.limit
        let sql =
            "SELECT * FROM events\(filter)\(filter.isEmpty ? " WHERE" : " AND") received_at >= ? ORDER BY received_at, id LIMIT ?"
        return try await withStorageErrors("read new records") {
            try await writer.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments + [receivedSince, limit]).map(Self.event)
            }
        }
    }

    public func recordMinutes(since minute: Int64) async throws -> [RecordMinute] {
        try await withStorageErrors("read the record counts") {
            try await writer.read { db in
                try Row.fetchAll(db, sql: ConsoleQueries.recordMinutes, arguments: [minute]).map { row in
                    RecordMinute(minute: row["minute"], namespace: row["namespace"], monitorType: row["monitor_type"], records: row["records"])
                }
            }
        }
    }

    public func performanceRollup(width: Int64, from: Int64, until: Int64, slotMinutes: Int64) async throws -> [PerformanceRollupRow] {
        try await withStorageErrors("read the performance rollup") {
            try await writer.read { db in
                let rows = try Row.fetchCursor(db, sql: ConsoleSchema.readPerformance, arguments: [from, slotMinutes, width, from, until])
                return try Array(
                    rows.compactMap { row -> PerformanceRollupRow? in
                        guard let measure = PerformanceSample.Measure(rawValue: row[1]) else { return nil }
                        return PerformanceRollupRow(
                            slot: row[0], measure: measure, key: row[2], bucket: row[3],
                            totals: PerformanceTotals(samples: row[4], failures: row[5], milliseconds: row[6]))
                    })
            }
        }
    }

    public func deliveryLosses(sinceHour: Int64) async throws -> [DeliveryLoss] {
        try await withStorageErrors("read the records lost on devices") {
            try await writer.read { db in
                try Row.fetchAll(db, sql: ConsoleSchema.readLosses, arguments: [sinceHour]).map { row in
                    DeliveryLoss(appVersion: row[0], reason: row[1], lost: row[2])
                }
            }
        }
    }

    public func queuedOnDevices(reportedSince: Int64) async throws -> QueuedOnDevices {
        try await withStorageErrors("read the records queued on devices") {
            try await writer.read { db in
                let row = try Row.fetchOne(db, sql: ConsoleSchema.readQueues, arguments: [reportedSince])
                return QueuedOnDevices(devices: row?[0] ?? 0, records: row?[1] ?? 0)
            }
        }
    }

    private static func user(_ row: Row) -> ConsoleUser {
        ConsoleUser(
            name: row["name"], role: ConsoleRole(rawValue: row["role"]) ?? .viewer, passwordHash: row["password_hash"],
            createdAt: row["created_at"])
    }

    private static func session(_ row: Row) -> ConsoleSession? {
        guard let role = ConsoleRole(rawValue: row["role"]) else { return nil }
        return ConsoleSession(
            tokenHash: row["token_hash"], userName: row["user_name"], role: role, csrfToken: row["csrf_token"], expiresAt: row["expires_at"])
    }

    private static func change(_ row: Row) throws -> ConfigurationChange {
        func json(_ text: String?) throws -> JSONValue? {
            try text.map { text throws(HermesWireError) in try JSONValue(parsing: Array(text.utf8)) }
        }
        return ConfigurationChange(
            id: row["id"], namespace: row["namespace"], revision: row["revision"], author: row["author"], changedAt: row["changed_at"],
            before: try json(row["before"]), after: try json(row["after"]))
    }
}
