import Foundation
import GRDB
import HermesWire

/// A batch claimed for upload: its rows are in flight under ``id`` until finished or released.
struct ClaimedBatch: Sendable {
    struct Row: Sendable {
        /// The row's `id` in its table.
        var id: Int64
        var reportID: String
        var monitorType: String
        var isBusiness: Bool
        var meta: String
        var payload: Data?
    }

    var id: String
    var table: StoreSchema.Table
    var rows: [Row]
}

extension ClaimedBatch {
    /// The entries of a 2xx answer's `rejected` list that name a row of this batch, at most one
    /// per row: by `REPORT_ID` when the collector could read it, else by index. An entry that
    /// names no row is left out, so that nothing is counted rejected that was not sent.
    func rejections(_ rejected: [UploadAnswer.Rejection]) -> [UploadAnswer.Rejection] {
        guard !rejected.isEmpty else { return [] }
        let positions = Dictionary(rows.enumerated().map { ($0.element.reportID, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var matched = Set<Int>()
        return rejected.filter { rejection in
            let position = rejection.reportID.map { positions[$0] } ?? (rows.indices.contains(rejection.index) ? rejection.index : nil)
            guard let position else { return false }
            return matched.insert(position).inserted
        }
    }

    /// Selects the batch's rows that are still in flight under its id, by primary key: there
    /// is no index on `batch_id`, and a scan of the table per batch made an upload of n rows
    /// cost O(n²).
    fileprivate var rowsCondition: String {
        "id IN (\(databaseQuestionMarks(count: max(rows.count, 1)))) AND batch_id = ?"
    }

    fileprivate var rowsArguments: StatementArguments {
        StatementArguments(rows.isEmpty ? [-1] : rows.map(\.id)) + [id]
    }
}

extension RecordStore {
    /// What to claim: a namespace's pending rows, crash rows first then oldest first, within
    /// `maxItems` rows and `maxBytes` bytes (specification §6.2), leaving out `excludedTypes`.
    struct BatchRequest: Sendable {
        var namespace: String
        var table: StoreSchema.Table
        var maxItems: Int
        var maxBytes: Int
        var excludedTypes: [String]
    }

    /// Claims the next batch and marks it in flight in one transaction. A pending row larger
    /// than `maxBytes` on its own can never be sent: it is deleted and reported as oversize.
    /// - Returns: the batch (empty when nothing is pending), and the rows deleted as oversize.
    func claimBatch(_ request: BatchRequest, batchID: String) throws -> (ClaimedBatch, oversize: Int) {
        let table = request.table.rawValue
        let placeholders = request.excludedTypes.indices.map { ":x\($0)" }.joined(separator: ", ")
        let exclusion = request.excludedTypes.isEmpty ? "" : "AND monitor_type NOT IN (\(placeholders))"
        // Crash rows of each crash type (MonitorType.crashTypes) and the others each come from
        // an index in id order, at most maxItems of each (one seek per crash type: `IN` would
        // make SQLite scan the namespace in id order, the whole of it once no crash is left);
        // one window function then keeps the prefix within both limits.
        let sql = """
            WITH candidates AS (
                SELECT * FROM (SELECT id, report_id, monitor_type, is_biz, meta, size, 0 AS rank FROM \(table)
                    WHERE namespace = :ns AND state = 0 AND monitor_type = :crash \(exclusion) ORDER BY id LIMIT :items)
                UNION ALL
                SELECT * FROM (SELECT id, report_id, monitor_type, is_biz, meta, size, 0 AS rank FROM \(table)
                    WHERE namespace = :ns AND state = 0 AND monitor_type = :bizCrash \(exclusion) ORDER BY id LIMIT :items)
                UNION ALL
                SELECT * FROM (SELECT id, report_id, monitor_type, is_biz, meta, size, 1 AS rank FROM \(table)
                    WHERE namespace = :ns AND state = 0 AND monitor_type NOT IN (:crash, :bizCrash) \(exclusion) ORDER BY id LIMIT :items)
            ), ranked AS (
                SELECT *, SUM(size) OVER running AS total, ROW_NUMBER() OVER running AS position
                FROM candidates WINDOW running AS (ORDER BY rank, id ROWS UNBOUNDED PRECEDING)
            )
            SELECT id, report_id, monitor_type, is_biz, meta, size, total FROM ranked
            WHERE position <= :items ORDER BY rank, id
            """
        let crashTypes = MonitorType.crashTypes(in: request.namespace)
        var arguments: StatementArguments = [
            "ns": request.namespace, "items": request.maxItems, "crash": crashTypes[0], "bizCrash": crashTypes[1],
        ]
        for (index, type) in request.excludedTypes.enumerated() { arguments += ["x\(index)": type] }
        return try claim(sql: sql, arguments: arguments, request: request, batchID: batchID)
    }

    private func claim(sql: String, arguments: StatementArguments, request: BatchRequest, batchID: String) throws -> (ClaimedBatch, oversize: Int) {
        let table = request.table
        let (batch, oversize) = try pool.write { db -> (ClaimedBatch, Int) in
            let candidates = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let chosen = candidates.prefix { ($0["total"] as Int) <= request.maxBytes }
            if chosen.isEmpty, let head = candidates.first {
                // The first row alone is over the limit: it would block the queue forever.
                try db.execute(sql: "DELETE FROM \(table.rawValue) WHERE id = ?", arguments: [head["id"] as Int64])
                return (ClaimedBatch(id: batchID, table: table, rows: []), 1)
            }
            let ids = chosen.map { $0["id"] as Int64 }
            var payloads: [Int64: Data] = [:]
            if table == .payload, !ids.isEmpty {
                for row in try Row.fetchAll(db, sql: "SELECT id, payload FROM payload WHERE id IN (\(databaseQuestionMarks(count: ids.count)))", arguments: StatementArguments(ids)) {
                    payloads[row["id"]] = row["payload"]
                }
            }
            if !ids.isEmpty {
                try db.execute(
                    sql: "UPDATE \(table.rawValue) SET state = 1, batch_id = ? WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                    arguments: [batchID] + StatementArguments(ids)
                )
            }
            let rows = chosen.map { row in
                ClaimedBatch.Row(
                    id: row["id"], reportID: row["report_id"], monitorType: row["monitor_type"], isBusiness: row["is_biz"],
                    meta: row["meta"], payload: payloads[row["id"]]
                )
            }
            return (ClaimedBatch(id: batchID, table: table, rows: rows), 0)
        }
        if oversize > 0 { adjustCount(request.namespace, by: -oversize) }
        return (batch, oversize)
    }

    /// The collector stored the batch: its rows leave the store.
    func finishBatch(_ batch: ClaimedBatch, namespace: String) throws {
        let deleted = try pool.write { db in
            try db.execute(sql: "DELETE FROM \(batch.table.rawValue) WHERE \(batch.rowsCondition)", arguments: batch.rowsArguments)
            return db.changesCount
        }
        adjustCount(namespace, by: -deleted)
    }

    /// The batch was not stored and may be sent again: its rows go back to pending.
    func releaseBatch(_ batch: ClaimedBatch) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE \(batch.table.rawValue) SET state = 0, batch_id = NULL WHERE \(batch.rowsCondition)", arguments: batch.rowsArguments)
        }
    }

    /// The namespace's cellular traffic window, as persisted.
    func trafficWindow(_ namespace: String) throws -> TrafficWindow? {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM namespace_state WHERE namespace = ?", arguments: [namespace])
            let values = Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as String, $0["value"] as Int64) })
            guard let start = values["traffic_start"], let used = values["traffic_bytes"] else { return nil }
            return TrafficWindow(start: start, usedBytes: Int(used))
        }
    }

    /// Persists the namespace's cellular traffic window.
    func saveTrafficWindow(_ window: TrafficWindow, namespace: String) throws {
        try pool.write { db in
            for (key, value) in [("traffic_start", window.start), ("traffic_bytes", Int64(window.usedBytes))] {
                try db.execute(
                    sql: "INSERT INTO namespace_state (namespace, key, value) VALUES (?, ?, ?) ON CONFLICT(namespace, key) DO UPDATE SET value = excluded.value",
                    arguments: [namespace, key, value]
                )
            }
        }
    }

    /// Rows of `namespace` still waiting (pending or in flight).
    func rowCount(_ namespace: String) -> Int {
        counts[namespace, default: 0]
    }
}
