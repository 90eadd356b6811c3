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
        /// The meta line, UTF-8.
        var meta: [UInt8]
        /// Meta plus payload bytes.
        var size: Int
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

    /// The ids of its rows.
    var ids: [Int64] { rows.map(\.id) }
}

extension RecordStore {
    /// What to claim: a namespace's pending rows, crash rows first then oldest first, within
    /// `maxItems` rows and `maxBytes` bytes (specification §6.2), leaving out `excludedTypes`
    /// and, when `monitoredTypes` is given, every type it does not hold.
    struct BatchRequest: Sendable {
        var namespace: String
        var table: StoreSchema.Table
        var maxItems: Int
        var maxBytes: Int
        var excludedTypes: [String]
        var monitoredTypes: Set<String>? = nil
    }

    /// Claims the next batch: the namespace's rows that no other batch holds, crash rows first,
    /// then oldest first, within the request's limits; marks them in flight (in memory: nothing
    /// is written). A row larger than `maxBytes` on its own can never be sent: it is deleted and
    /// reported as oversize.
    /// - Returns: the batch (empty when nothing is waiting), and the rows deleted as oversize.
    func claimBatch(_ request: BatchRequest, batchID: String) throws -> (ClaimedBatch, oversize: Int) {
        let claimed = inFlight[request.table, default: []]
        let crashTypes = MonitorType.crashTypes(in: request.namespace)
        let excluded = Set(request.excludedTypes)
        let table = request.table.rawValue
        let columns = "id, report_id, monitor_type, is_biz, meta, size" + (request.table == .payload ? ", payload" : "")
        // Crash rows through their own small index, then every row in id order (crash rows,
        // taken already, are skipped there), each read in chunks past what is in flight.
        let passes = [
            (
                "SELECT \(columns) FROM \(table) WHERE namespace = ? AND \(StoreSchema.crashRowCondition) AND monitor_type IN (?, ?) AND id > ? ORDER BY id LIMIT ?",
                [request.namespace] + crashTypes
            ),
            ("SELECT \(columns) FROM \(table) WHERE namespace = ? AND id > ? ORDER BY id LIMIT ?", [request.namespace]),
        ]
        let chunk = request.maxItems + claimed.count
        var rows: [ClaimedBatch.Row] = []
        var bytes = 0
        let oversize: Int64? = try pool.writeWithoutTransaction { db in
            for (index, (sql, texts)) in passes.enumerated() {
                let statement = try db.cachedStatement(sql: sql)
                var after: Int64 = 0
                while true {
                    let candidates = try Self.claimCandidates(statement, texts: texts, after: after, limit: chunk, table: request.table, in: db)
                    for candidate in candidates {
                        after = candidate.id
                        guard !claimed.contains(after), !excluded.contains(candidate.monitorType),
                            request.monitoredTypes?.contains(candidate.monitorType) ?? true,
                            index == 0 || !crashTypes.contains(candidate.monitorType)
                        else { continue }
                        guard bytes + candidate.size <= request.maxBytes else {
                            // The first row alone is over the limit: it would block the queue forever.
                            guard rows.isEmpty else { return nil }
                            try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [after])
                            return after
                        }
                        bytes += candidate.size
                        rows.append(candidate)
                        if rows.count == request.maxItems { return nil }
                    }
                    if candidates.count < chunk { break }
                }
            }
            return nil
        }
        if oversize != nil {
            adjustCount(request.namespace, by: -1)
            return (ClaimedBatch(id: batchID, table: request.table, rows: []), 1)
        }
        inFlight[request.table, default: []].formUnion(rows.map(\.id))
        return (ClaimedBatch(id: batchID, table: request.table, rows: rows), 0)
    }

    /// The collector stored the batch: its rows leave the store.
    /// - Parameter copyingMeta: for a payload batch, put a copy of each row's meta (same
    ///   `REPORT_ID`, no payload) in the meta table in the same transaction, to go on the meta
    ///   channel next: the v1 wire format's channel semantics (specification §6.1).
    func finishBatch(_ batch: ClaimedBatch, namespace: String, copyingMeta: Bool = false) throws {
        let marks = databaseQuestionMarks(count: batch.rows.count)
        // Cached: most batches have the same row count, so the statements are parsed once.
        let delete = "DELETE FROM \(batch.table.rawValue) WHERE id IN (\(marks))"
        let (deleted, copied): (Int, Int)
        if copyingMeta, batch.table == .payload {
            (deleted, copied) = try pool.write { db in
                try db.cachedStatement(
                    sql: """
                        INSERT OR IGNORE INTO meta (report_id, namespace, monitor_type, is_biz, created_time, app_version, meta, size)
                        SELECT report_id, namespace, monitor_type, is_biz, created_time, app_version, meta, length(CAST(meta AS BLOB))
                        FROM payload WHERE id IN (\(marks)) ORDER BY id
                        """
                ).execute(arguments: StatementArguments(batch.ids))
                let copied = db.changesCount
                try db.cachedStatement(sql: delete).execute(arguments: StatementArguments(batch.ids))
                return (db.changesCount, copied)
            }
        } else {
            // One statement, atomic on its own: outside an explicit transaction SQLite keeps no
            // statement journal for it, which for a batch's rows (more than 64 KiB of pages)
            // was a temporary file created, written and deleted on every upload.
            deleted = try pool.writeWithoutTransaction { db in
                try db.cachedStatement(sql: delete).execute(arguments: StatementArguments(batch.ids))
                return db.changesCount
            }
            copied = 0
        }
        inFlight[batch.table]?.subtract(batch.ids)
        adjustCount(namespace, by: copied - deleted)
    }

    /// The batch was not stored and may be sent again: its rows can be claimed again.
    func releaseBatch(_ batch: ClaimedBatch) {
        inFlight[batch.table]?.subtract(batch.ids)
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
                    sql:
                        "INSERT INTO namespace_state (namespace, key, value) VALUES (?, ?, ?) ON CONFLICT(namespace, key) DO UPDATE SET value = excluded.value",
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
