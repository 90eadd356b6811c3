import GRDB
import HermesWire

/// The local tables of a device: one per schema type (`id`, `revision`, one column per
/// attribute), the queue of unsent change sets `hermes_sync_outbox(sequence, change_set)` and
/// the tables it is read through (`SyncTables+Outbox`), and the device's state
/// (``SyncDeviceState``).
///
/// Every function runs inside the caller's transaction.
struct SyncTables {
    let schema: SyncSchema
    /// The SQL of each type's table, by type name.
    private let sql: [String: SyncTableSQL]

    init(schema: SyncSchema) {
        self.schema = schema
        sql = Dictionary(schema.types.map { ($0.name, SyncTableSQL($0, in: schema)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Creates the device's tables in `database`: the state and the queue through
    /// ``SyncDeviceState/migrator``, then each schema type's table that is missing, and starts
    /// the state of device `clientID`.
    func create(in database: any DatabaseWriter, clientID: String) throws {
        try SyncDeviceState.migrator.migrate(database)
        try database.write { db in
            try SyncDeviceState.start(clientID: clientID, in: db)
            try addMissingColumns(in: db)
            try createTypeTables(in: db)
            try SyncDeviceState.adopt(schemaVersion: schema.version, in: db)
        }
    }

    /// Adds the columns of attributes a type's existing table lacks: the app now speaks a schema
    /// that added them.
    private func addMissingColumns(in db: Database) throws {
        for type in schema.types where try db.tableExists(type.name) {
            let columns = Set(try db.columns(in: type.name).map(\.name))
            for attribute in type.attributes where !columns.contains(attribute.name) {
                try db.execute(sql: SyncTableSQL.addColumn(attribute, to: type.name))
            }
        }
    }

    /// Creates each schema type's table (and indexes) that is missing.
    private func createTypeTables(in db: Database) throws {
        for type in schema.types {
            for statement in sql[type.name]?.create ?? [] { try db.execute(sql: statement) }
        }
    }

    // MARK: Records

    /// The local record, or `nil`.
    func record(_ key: SyncRecordKey, in db: Database) throws -> SyncRecord? {
        guard let sql = sql[key.type] else { return nil }
        return try Row.fetchOne(db.cachedStatement(sql: sql.select), arguments: [key.id]).map { record($0, sql.type) }
    }

    /// The revision of the local record, or `nil` when there is none.
    func revision(of key: SyncRecordKey, in db: Database) throws -> Int64? {
        guard let sql = sql[key.type] else { return nil }
        return try Int64.fetchOne(db.cachedStatement(sql: sql.revision), arguments: [key.id])
    }

    /// Every local record of `type`, by id.
    func records(of type: SyncEntityType, in db: Database) throws -> [SyncRecord] {
        guard let sql = sql[type.name] else { return [] }
        return try Row.fetchAll(db, sql: sql.selectAll).map { record($0, type) }
    }

    /// Inserts or replaces a record (a tombstone deletes it). Records of unknown types are ignored.
    /// The caller tells GRDB's observers with ``notifyChanges(to:in:)``.
    func save(_ record: SyncRecord, in db: Database) throws {
        guard let sql = sql[record.type] else { return }
        guard let attributes = record.attributes else {
            try db.cachedStatement(sql: sql.delete).execute(arguments: [record.id])
            return
        }
        _ = try Self.execute(db.cachedStatement(sql: sql.save), saving: record, attributes, sql.type, in: db)
    }

    /// A saver of the records of missed change sets, for one transaction on `db`.
    func newerRecordSaver(in db: Database) -> NewerRecordSaver {
        NewerRecordSaver(tables: self, db: db)
    }

    /// Saves records from the server, each unless the local one is at a newer revision (a
    /// tombstone deletes it, on the same condition), inside one transaction. It keeps each type's
    /// prepared statement for the whole answer: looking it up in GRDB's cache for every record
    /// (hashing its SQL, checking the queue) cost about as much as running it.
    struct NewerRecordSaver {
        let tables: SyncTables
        let db: Database
        /// The type saved last, its schema and its statement.
        private var lastType: String?
        private var lastEntity: SyncEntityType?
        private var lastStatement: Statement?
        /// The statement of each type met.
        private var statements: [String: Statement] = [:]

        fileprivate init(tables: SyncTables, db: Database) {
            self.tables = tables
            self.db = db
        }

        /// Saves `record` unless the local one is newer. The caller tells GRDB's observers with
        /// ``SyncTables/notifyChanges(to:in:)``. Records of unknown types are ignored.
        /// - Returns: whether the local data set changed or the record was absent already.
        mutating func saveUnlessNewer(_ record: SyncRecord) throws -> Bool {
            guard let attributes = record.attributes else {
                let key = SyncRecordKey(type: record.type, id: record.id)
                guard tables.sql[record.type] != nil else { return false }
                if let local = try tables.revision(of: key, in: db), local > record.revision { return false }
                try tables.delete(key, in: db)
                return true
            }
            if lastType != record.type {
                guard let sql = tables.sql[record.type] else { return false }
                let statement = try statements[record.type] ?? db.cachedStatement(sql: sql.saveUnlessNewer)
                statements[record.type] = statement
                (lastType, lastEntity, lastStatement) = (record.type, sql.type, statement)
            }
            guard let lastStatement, let lastEntity else { return false }
            return try SyncTables.execute(lastStatement, saving: record, attributes, lastEntity, in: db) > 0
        }
    }

    func delete(_ key: SyncRecordKey, in db: Database) throws {
        guard let sql = sql[key.type] else { return }
        try db.cachedStatement(sql: sql.delete).execute(arguments: [key.id])
    }

    func setRevision(_ revision: Int64, of key: SyncRecordKey, in db: Database) throws {
        guard let sql = sql[key.type] else { return }
        try db.cachedStatement(sql: sql.setRevision).execute(arguments: [revision, key.id])
    }

    /// Gives a record created on this device its server id, in its row and in every foreign key
    /// that points to it.
    func rename(_ key: SyncRecordKey, to id: Int64, in db: Database) throws {
        guard let sql = sql[key.type] else { return }
        try db.cachedStatement(sql: sql.delete).execute(arguments: [id])
        try db.cachedStatement(sql: sql.rename).execute(arguments: [id, key.id])
        for statement in sql.renameReferences { try db.cachedStatement(sql: statement).execute(arguments: [id, key.id]) }
    }

    /// Drops every record with a server id except `keeping`: the start of a full copy.
    func dropServerRecords(keeping: Set<SyncRecordKey>, in db: Database) throws {
        for type in schema.types {
            guard let sql = sql[type.name] else { continue }
            // Integers only: safe to spell out in the statement.
            let kept = keeping.filter { $0.type == type.name && $0.id > 0 }.map { String($0.id) }.joined(separator: ",")
            try db.execute(sql: sql.deleteServerRowsExcept + "(\(kept))")
        }
    }

    // MARK: Values

    private func record(_ row: Row, _ type: SyncEntityType) -> SyncRecord {
        // A `null` attribute is an absent one, as on the server.
        var attributes: [String: JSONValue] = [:]
        for attribute in type.attributes {
            let value = Self.jsonValue(row[attribute.name] as DatabaseValue, attribute.kind)
            if value != .null { attributes[attribute.name] = value }
        }
        return SyncRecord(type: type.name, id: row["id"], revision: row["revision"], attributes: attributes)
    }

    static func jsonValue(_ value: DatabaseValue, _ kind: SyncAttribute.Kind) -> JSONValue {
        if value.isNull { return .null }
        switch kind {
        case .string: return String.fromDatabaseValue(value).map(JSONValue.string) ?? .null
        case .bool: return Bool.fromDatabaseValue(value).map(JSONValue.bool) ?? .null
        case .double: return Double.fromDatabaseValue(value).map(JSONValue.double) ?? .null
        case .integer, .reference: return Int64.fromDatabaseValue(value).map(JSONValue.int) ?? .null
        }
    }
}
