import GRDB
import GRDBSQLite

extension SQLiteCollectorStorage {
    /// Commits a group of batches in one transaction, each batch inside its own savepoint: a
    /// batch whose insert fails is rolled back alone and fails alone. If the transaction as a
    /// whole fails (its commit, or an error after which SQLite rolled everything back), each batch
    /// of a larger group is committed again in a transaction of its own, so a failure is never
    /// another batch's. A record that several batches of one group carry is stored by the first.
    /// - Returns: one result per batch, in order.
    static func commit(_ batches: [IngestBatch], to writer: any DatabaseWriter) async -> [Result<StoreOutcome, any Error>] {
        do {
            return try await writer.write { db in try insert(batches, in: db) }
        } catch {
            guard batches.count > 1 else { return [.failure(error)] }
            var results: [Result<StoreOutcome, any Error>] = []
            for batch in batches {
                do {
                    results.append(.success(try await writer.write { db in try insert(batch, in: db) }))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    /// Inserts `batches` in the transaction open on `db`, one savepoint per batch when there are
    /// several.
    /// - Throws: when the transaction itself is lost (SQLite rolled it back) or, for a single
    ///   batch, its error.
    static func insert(_ batches: [IngestBatch], in db: Database) throws -> [Result<StoreOutcome, any Error>] {
        if batches.count == 1 { return [.success(try insert(batches[0], in: db))] }
        let savepoint = try db.cachedStatement(sql: "SAVEPOINT batch")
        let release = try db.cachedStatement(sql: "RELEASE batch")
        let rollback = try db.cachedStatement(sql: "ROLLBACK TO batch")
        var results: [Result<StoreOutcome, any Error>] = []
        results.reserveCapacity(batches.count)
        for batch in batches {
            try savepoint.execute()
            do {
                let outcome = try insert(batch, in: db)
                try release.execute()
                results.append(.success(outcome))
            } catch {
                guard db.isInsideTransaction else { throw error }
                try rollback.execute()
                try release.execute()
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Inserts one batch's records, each at most once per `(namespace, report_id)`.
    static func insert(_ batch: IngestBatch, in db: Database) throws -> StoreOutcome {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO events (
                    namespace, report_id, monitor_type, create_time, meta, payload, device_id, batch_id, received_at,
                    user_id, session_id, app_version, app_key_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (namespace, report_id) DO NOTHING
                """)
        var stored = 0
        var minute = RecordMinuteTally()
        var performance = PerformanceTally()
        var health = DeliveryHealthTally()
        for record in batch.records {
            health.noteQueue(of: record, uploader: batch.deviceID)
            guard try execute(statement, binding: record, of: batch, in: db) else { continue }
            stored += 1
            minute.count(record)
            performance.count(record)
            health.countLosses(of: record)
        }
        let add = try db.cachedStatement(sql: ConsoleSchema.addMinute)
        for (key, records) in minute.counts {
            try add.execute(arguments: [batch.receivedAt / 60_000, key.namespace, key.monitorType, records])
        }
        let addPerformance = try db.cachedStatement(sql: ConsoleSchema.addPerformance)
        for (cell, totals) in performance.sorted {
            try addPerformance.execute(arguments: [
                cell.width, cell.start, cell.measure.rawValue, cell.key, cell.bucket, totals.samples, totals.failures, totals.milliseconds,
            ])
        }
        let addLoss = try db.cachedStatement(sql: ConsoleSchema.addLoss)
        for (key, lost) in health.sortedLosses { try addLoss.execute(arguments: [key.hour, key.appVersion, key.reason, lost]) }
        let noteQueue = try db.cachedStatement(sql: ConsoleSchema.noteQueue)
        for (device, queue) in health.sortedQueues { try noteQueue.execute(arguments: [device, queue.reportedAt, queue.depth]) }
        return StoreOutcome(stored: stored, duplicates: batch.records.count - stored)
    }

    /// Binds a record's columns straight to SQLite (no GRDB argument array, no `String` or `Data`
    /// copy of the meta line or payload) and runs the insert.
    /// - Returns: whether the record was new.
    private static func execute(_ statement: Statement, binding record: IngestRecord, of batch: IngestBatch, in db: Database) throws -> Bool {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_bind_text(handle, 1, record.namespace, -1, transient)
        sqlite3_bind_text(handle, 2, record.reportID, -1, transient)
        sqlite3_bind_text(handle, 3, record.monitorType, -1, transient)
        sqlite3_bind_int64(handle, 4, record.createTime)
        record.meta.withUnsafeBytes { meta in
            if let text = meta.baseAddress?.assumingMemoryBound(to: CChar.self) {
                _ = sqlite3_bind_text(handle, 5, text, Int32(meta.count), transient)
            } else {
                _ = sqlite3_bind_text(handle, 5, "", 0, transient)
            }
        }
        if let payload = record.payload, !payload.isEmpty {
            payload.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(handle, 6, bytes.baseAddress, Int32(bytes.count), transient)
            }
        } else if record.payload != nil {
            sqlite3_bind_zeroblob(handle, 6, 0)
        } else {
            sqlite3_bind_null(handle, 6)
        }
        bind(batch.deviceID, at: 7, of: handle)
        bind(batch.batchID, at: 8, of: handle)
        sqlite3_bind_int64(handle, 9, batch.receivedAt)
        bind(record.facets.userID, at: 10, of: handle)
        bind(record.facets.sessionID, at: 11, of: handle)
        bind(record.facets.appVersion, at: 12, of: handle)
        bind(batch.appKeyID, at: 13, of: handle)
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    private static func bind(_ text: String?, at index: Int32, of handle: SQLiteStatement) {
        if let text {
            sqlite3_bind_text(handle, index, text, -1, transient)
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
