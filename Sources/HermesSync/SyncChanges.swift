import GRDB
public import HermesWire

/// The local changes of one ``SyncClient/write(_:)`` transaction: they are saved to the local
/// tables and queued as one change set together, or not at all.
///
/// Records created here get negative temporary ids that other records of the same or a later
/// transaction may use as foreign keys; the server's ids replace them once it applied the change.
///
/// ```swift
/// try client.write { changes in
///     let team = try changes.create("teams", ["name": "Blue"])
///     try changes.create("players", ["name": "Ada", "team_id": .int(team)])
/// }
/// ```
public struct SyncChanges {
    let db: Database
    let tables: SyncTables
    private(set) var entries: [SyncChangeSet.Entry] = []

    init(db: Database, tables: SyncTables) {
        self.db = db
        self.tables = tables
    }

    /// Creates a record.
    /// - Parameters:
    ///   - type: the record type.
    ///   - attributes: its attributes; missing ones are `null`.
    /// - Returns: the record's temporary id (negative).
    /// - Throws: ``SyncError/Code/invalidChange`` if the type or an attribute does not fit the schema.
    @discardableResult
    public mutating func create(_ type: String, _ attributes: [String: JSONValue]) throws(SyncError) -> Int64 {
        try check(type, attributes)
        let id: Int64 = try storage { try SyncDeviceState.takeTemporaryID(in: db) }
        let record = SyncRecord(type: type, id: id, revision: 0, attributes: attributes)
        try storage { try tables.save(record, in: db) }
        entries.append(.init(.create, record))
        return id
    }

    /// Changes some attributes of a record; the others keep their values.
    /// - Parameters:
    ///   - type: the record type.
    ///   - id: the record's id (server or temporary).
    ///   - attributes: the attributes to change.
    /// - Throws: ``SyncError/Code/recordNotFound`` if it is not in the local data set,
    ///   ``SyncError/Code/invalidChange`` if an attribute does not fit the schema.
    public mutating func update(_ type: String, id: Int64, _ attributes: [String: JSONValue]) throws(SyncError) {
        try check(type, attributes)
        var record = try existing(type, id)
        record.attributes = (record.attributes ?? [:]).merging(attributes) { _, new in new }
        let updated = record
        try storage { try tables.save(updated, in: db) }
        if let index = index(of: record) {
            entries[index].record.attributes = record.attributes
        } else {
            entries.append(.init(.update, record))
        }
    }

    /// Deletes a record. The server refuses the change set if other records still refer to it.
    /// - Parameters:
    ///   - type: the record type.
    ///   - id: the record's id (server or temporary).
    /// - Throws: ``SyncError/Code/recordNotFound`` if it is not in the local data set.
    public mutating func delete(_ type: String, id: Int64) throws(SyncError) {
        let record = try existing(type, id)
        try storage { try tables.delete(SyncRecordKey(type: type, id: id), in: db) }
        if let index = index(of: record) {
            if entries[index].operation == .create {
                entries.remove(at: index)
                return
            }
            entries.remove(at: index)
        }
        entries.append(.init(.delete, SyncRecord(type: type, id: id, revision: record.revision, attributes: nil)))
    }

    /// The local record, as this transaction left it.
    public func record(_ type: String, id: Int64) throws(SyncError) -> SyncRecord? {
        try storage { try tables.record(SyncRecordKey(type: type, id: id), in: db) }
    }

    private func existing(_ type: String, _ id: Int64) throws(SyncError) -> SyncRecord {
        guard let record = try record(type, id: id) else {
            throw SyncError(.recordNotFound, "\(type) \(id) is not in the local data set")
        }
        return record
    }

    private func index(of record: SyncRecord) -> Int? {
        entries.firstIndex { $0.record.type == record.type && $0.record.id == record.id }
    }

    private func check(_ type: String, _ attributes: [String: JSONValue]) throws(SyncError) {
        guard let entityType = tables.schema.type(named: type) else { throw SyncError(.invalidChange, "the schema has no type \(type)") }
        if let problem = entityType.problem(in: attributes) { throw SyncError(.invalidChange, problem) }
        if attributes.keys.contains(where: SyncRecord.reservedKeys.contains) {
            throw SyncError(.invalidChange, "revision and __oldId__ are kept by sync, not attributes")
        }
    }
}

/// Lives inside one database transaction: not to be shared across tasks.
@available(*, unavailable)
extension SyncChanges: Sendable {}

/// Runs local database work, turning its errors into ``SyncError/Code/storageFailed``.
func storage<T>(_ work: () throws -> T) throws(SyncError) -> T {
    do {
        return try work()
    } catch {
        throw storageFailure(error)
    }
}

/// Runs local database work that runs on the database's own queue (GRDB's async access), turning
/// its errors into ``SyncError/Code/storageFailed``.
func storage<T: Sendable>(_ work: () async throws -> T) async throws(SyncError) -> T {
    do {
        return try await work()
    } catch {
        throw storageFailure(error)
    }
}

/// `error` itself when it is a ``SyncError``, otherwise a ``SyncError/Code/storageFailed`` naming it.
private func storageFailure(_ error: any Error) -> SyncError {
    error as? SyncError ?? SyncError(.storageFailed, "the local database failed: \(describe(error))", underlying: error)
}

/// An error's description without SQL arguments (they may hold attribute values).
func describe(_ error: any Error) -> String {
    guard let error = error as? DatabaseError else { return String(describing: type(of: error)) }
    return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "no message")"
}
