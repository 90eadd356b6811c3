import GRDB
import GRDBSQLite
import HermesWire

/// The stored records after a revision, in revision order (type and id within one), read from
/// `sync_records` through SQLite's own calls: a catch-up page reads thousands of rows, and GRDB's
/// rows (columns found by name, values converted one by one) cost more than SQLite's reading.
enum SyncPageRows {
    /// One stored record.
    struct Row {
        var type: String
        var id: Int64
        var revision: Int64
        /// The revision it was created at.
        var created: Int64
        /// Its attributes' JSON object text as stored; `nil` for a tombstone.
        var attributes: [UInt8]?

        /// The record, its attributes to be written into the answer as stored.
        var record: SyncRecord {
            guard let attributes else { return SyncRecord(type: type, id: id, revision: revision, attributes: nil) }
            return SyncRecord(type: type, id: id, revision: revision, encodedAttributes: attributes)
        }
    }

    static let sql = "SELECT type, id, revision, created, attributes FROM sync_records WHERE revision > ? ORDER BY revision, type, id"

    /// Calls `body` with each record written after revision `position`, in order, until it
    /// returns `false` or the records run out.
    /// - Throws: SQLite's error, or what `body` throws.
    static func read(after position: Int64, in db: Database, _ body: (Row) throws -> Bool) throws {
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        sqlite3_bind_int64(handle, 1, position)
        // Rows of one type follow each other: its name is made once per run of them.
        var typeBytes: [UInt8] = []
        var type = ""
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            let typeText = text(handle, column: 0)
            if !typeText.elementsEqual(typeBytes) {
                typeBytes = Array(typeText)
                type = String(decoding: typeBytes, as: UTF8.self)
            }
            let row = Row(
                type: type, id: sqlite3_column_int64(handle, 1), revision: sqlite3_column_int64(handle, 2), created: sqlite3_column_int64(handle, 3),
                attributes: sqlite3_column_type(handle, 4) == SQLITE_NULL ? nil : Array(text(handle, column: 4)))
            guard try body(row) else { return }
        }
    }

    /// A text column's UTF-8 bytes, valid until the statement steps again.
    private static func text(_ handle: OpaquePointer, column: Int32) -> UnsafeBufferPointer<UInt8> {
        // The text first, then its length (SQLite's documented order).
        let start = sqlite3_column_text(handle, column)
        return UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_column_bytes(handle, column)))
    }
}
