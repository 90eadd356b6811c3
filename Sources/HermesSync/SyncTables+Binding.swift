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
        // An attribute the record does not hold is NULL; a value under a key the schema does not
        // have is left out. Each key is found among the type's attributes by comparing names:
        // a type has a handful, and hashing them cost more.
        sqlite3_clear_bindings(handle)
        sqlite3_bind_int64(handle, 1, record.id)
        sqlite3_bind_int64(handle, 2, record.revision)
        let names = type.attributes
        for (name, value) in attributes {
            guard let index = names.firstIndex(where: { $0.name == name }) else { continue }
            bind(value, to: handle, at: Int32(index + 3))
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
        // Records of one type come in runs: the set is built from the runs' first.
        var distinct = Set<String>()
        var previous: String?
        for type in types where type != previous {
            distinct.insert(type)
            previous = type
        }
        for type in distinct where schema.type(named: type) != nil {
            try db.notifyChanges(in: Table(type))
        }
    }

    /// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
