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
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
