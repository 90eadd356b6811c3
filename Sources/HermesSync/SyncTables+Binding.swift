import GRDB
import GRDBSQLite
import HermesWire

extension SyncTables {
    /// Runs ``SyncTableSQL/save`` or ``SyncTableSQL/saveUnlessNewer`` for `record`, binding its
    /// id, revision and attributes (in schema order) straight to SQLite: an answer saves hundreds
    /// of records, and building GRDB's argument arrays cost more than running the statement.
    ///
    /// GRDB does not see this statement run, so its observers (a `ValueObservation` of the app)
    /// learn of the change from ``notifyChanges(to:in:)``, which the transaction calls before it
    /// ends.
    /// - Returns: the rows it changed (SQLite's count, read at once rather than through GRDB's
    ///   `changesCount`, which checks its queue first).
    static func execute(_ statement: Statement, saving record: SyncRecord, _ attributes: [String: JSONValue], _ type: SyncEntityType, in db: Database)
        throws -> Int32
    {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, record.id)
        sqlite3_bind_int64(handle, 2, record.revision)
        for (index, attribute) in type.attributes.enumerated() {
            bind(attributes[attribute.name] ?? .null, to: handle, at: Int32(index + 3))
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
        return sqlite3_changes(db.sqliteConnection)
    }

    /// Binds an attribute's value as GRDB would: booleans as 0 or 1; arrays and objects, which no
    /// attribute holds, as `NULL`.
    private static func bind(_ value: JSONValue, to handle: OpaquePointer, at index: Int32) {
        switch value {
        case .null, .array, .object: sqlite3_bind_null(handle, index)
        case .bool(let bool): sqlite3_bind_int64(handle, index, bool ? 1 : 0)
        case .int(let int): sqlite3_bind_int64(handle, index, int)
        case .double(let double): sqlite3_bind_double(handle, index, double)
        case .string(var string):
            string.withUTF8 { bytes in
                _ = sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
            }
        }
    }

    /// Tells GRDB's observers that the tables of record types `types` changed in this
    /// transaction (see ``execute(_:saving:_:_:in:)``).
    func notifyChanges(to types: some Sequence<String>, in db: Database) throws {
        for type in Set(types) where schema.type(named: type) != nil {
            try db.notifyChanges(in: Table(type))
        }
    }

    /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
