import Foundation
import GRDB
import GRDBSQLite

extension RecordStore {
    /// Binds a record's columns straight to SQLite and runs the insert: the writer's inner
    /// loop, where building GRDB argument arrays and a `String` of each meta cost more than
    /// the insert itself. Parameters in the order of the `INSERT` in ``insert(_:journalCursors:forgetting:)``.
    static func execute(_ statement: Statement, binding record: PendingRecord, in db: Database) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_bind_text(handle, 1, record.reportID, -1, transient)
        sqlite3_bind_text(handle, 2, record.namespace, -1, transient)
        sqlite3_bind_text(handle, 3, record.monitorType, -1, transient)
        sqlite3_bind_int64(handle, 4, record.isBusiness ? 1 : 0)
        sqlite3_bind_int64(handle, 5, record.createdTime)
        sqlite3_bind_text(handle, 6, record.appVersion, -1, transient)
        record.meta.withUnsafeBytes { meta in
            _ = sqlite3_bind_text(handle, 7, meta.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(meta.count), transient)
        }
        sqlite3_bind_int64(handle, 8, Int64(record.size))
        if let payload = record.payload {
            payload.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(handle, 9, bytes.baseAddress, Int32(bytes.count), transient)
            }
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// Runs a claim query (``claimBatch(_:batchID:)``) and reads its rows straight from SQLite:
    /// the columns `id, report_id, monitor_type, is_biz, meta, size` and, for the payload
    /// table, `payload`; the parameters `texts`, then the id to read past and the row limit.
    static func claimCandidates(
        _ statement: Statement, texts: [String], after: Int64, limit: Int,
        table: StoreSchema.Table, in db: Database
    ) throws -> [ClaimedBatch.Row] {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        for (index, text) in texts.enumerated() { sqlite3_bind_text(handle, Int32(index + 1), text, -1, transient) }
        sqlite3_bind_int64(handle, Int32(texts.count + 1), after)
        sqlite3_bind_int64(handle, Int32(texts.count + 2), Int64(limit))
        var rows: [ClaimedBatch.Row] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return rows
            case SQLITE_ROW:
                rows.append(
                    ClaimedBatch.Row(
                        id: sqlite3_column_int64(handle, 0), reportID: text(handle, 1), monitorType: text(handle, 2),
                        isBusiness: sqlite3_column_int64(handle, 3) != 0, meta: bytes(handle, 4), size: Int(sqlite3_column_int64(handle, 5)),
                        payload: table == .payload ? Data(bytes(handle, 6)) : nil
                    ))
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
        }
    }

    private static func text(_ handle: OpaquePointer, _ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    private static func bytes(_ handle: OpaquePointer, _ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
