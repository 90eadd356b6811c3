/// A set of changes that succeed or fail together: what a device saved in one local transaction,
/// or what the server committed at one revision.
///
/// On the wire (see docs/sync.md) it names its `types` and, per type, the `create`, `update` and
/// `delete` id lists and the `attributes` by id; each record's `revision` travels inside its
/// attributes. From a device it carries the device's `sequence`; in an answer to that device it
/// carries `conflict` (and a `reason` when true) and, when applied, the `revision` it was committed at.
public struct SyncChangeSet: Sendable, Hashable {
    /// What an entry does to its record.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case create, update, delete
    }

    /// One record's change.
    public struct Entry: Sendable, Hashable {
        /// What is done.
        public var operation: Operation
        /// The record: for a create its (temporary) id and attributes; for an update the full
        /// attributes and the revision they were based on; for a delete the revision it was based on.
        public var record: SyncRecord
        /// In an answer, the temporary id a created record had on its device.
        public var oldID: Int64?

        /// An entry.
        public init(_ operation: Operation, _ record: SyncRecord, oldID: Int64? = nil) {
            self.operation = operation
            self.record = record
            self.oldID = oldID
        }
    }

    /// The device's number for this change set, counting up from 1 per device.
    public var sequence: Int64?
    /// The revision the server committed it at (answers only).
    public var revision: Int64?
    /// In an answer to the device that sent it: `false` when applied, `true` when refused.
    public var conflict: Bool?
    /// Why it was refused (a ``SyncConflictReason`` raw value), when `conflict` is true.
    public var reason: String?
    /// The changes, grouped by type on the wire in the order of their first entry.
    public var entries: [Entry]

    /// A change set.
    public init(sequence: Int64? = nil, revision: Int64? = nil, conflict: Bool? = nil, reason: String? = nil, entries: [Entry]) {
        self.sequence = sequence
        self.revision = revision
        self.conflict = conflict
        self.reason = reason
        self.entries = entries
    }

    /// The type names in the order of their first entry: the wire's `types`.
    public var types: [String] {
        var seen = Set<String>()
        return entries.compactMap { seen.insert($0.record.type).inserted ? $0.record.type : nil }
    }
}

/// Why the server refused a change set (the `reason` of an answer with `conflict: true`).
public enum SyncConflictReason: String, Sendable, Hashable, CaseIterable {
    /// A record was changed or deleted by someone else since the revision the change was based on.
    case stale
    /// A deleted record is still referenced by other records.
    case referenced
    /// The server's permission check refused a change.
    case forbidden
    /// The change set can never be applied: unknown type or attribute, a value of the wrong kind, a
    /// reference to a record that does not exist.
    case invalid
    /// It was made under another schema version. No longer answered: a change set of another
    /// version is applied when the server's schema can take it, and is otherwise
    /// ``schemaPending``.
    case schema
    /// It was made under another schema version and uses a type or attribute the server's schema
    /// does not have (as it has it). The server does not record the refusal and applies nothing
    /// after it in the request: the device keeps the change set queued, untouched, and sends it
    /// again once its app speaks the server's version (or the server its).
    case schemaPending
    /// It was sent again after the server forgot its answer (older than the kept history).
    case expired
}

extension SyncChangeSet {
    /// The change set as its wire JSON.
    public var json: JSONValue {
        var object: [String: JSONValue] = [:]
        let types = types
        object["types"] = .array(types.map { .string($0) })
        for type in types {
            var lists: [Operation: [JSONValue]] = [:]
            var attributes: [String: JSONValue] = [:]
            for entry in entries where entry.record.type == type {
                lists[entry.operation, default: []].append(.int(entry.record.id))
                var values = entry.record.attributes ?? [:]
                values[SyncRecord.revisionKey] = .int(entry.record.revision)
                if let oldID = entry.oldID { values[SyncRecord.oldIDKey] = .int(oldID) }
                attributes[String(entry.record.id)] = .object(values)
            }
            var typeObject: [String: JSONValue] = ["attributes": .object(attributes)]
            for operation in Operation.allCases { typeObject[operation.rawValue] = .array(lists[operation] ?? []) }
            object[type] = .object(typeObject)
        }
        if let sequence { object["sequence"] = .int(sequence) }
        if let revision { object["revision"] = .int(revision) }
        if let conflict { object["conflict"] = .bool(conflict) }
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }

    /// Reads a change set from its wire JSON bytes.
    /// - Throws: ``HermesWireError/Code/invalidJSON``, ``HermesWireError/Code/invalidField`` or
    ///   ``HermesWireError/Code/missingField`` naming what is wrong; a record listed twice is invalid.
    public init(jsonBytes: some Collection<UInt8>) throws(HermesWireError) {
        // Straight from the bytes when they are well formed (see `SyncWireReader`).
        if let changeSet = SyncWireReader.changeSet(jsonBytes) {
            self = changeSet
        } else {
            try self.init(json: JSONValue(parsing: jsonBytes))
        }
    }

    /// Reads a change set from its wire JSON.
    /// - Throws: ``HermesWireError/Code/invalidField`` or ``HermesWireError/Code/missingField``
    ///   naming what is wrong; a record listed twice is invalid.
    public init(json: JSONValue) throws(HermesWireError) {
        let object = try json.syncObject("change set")
        var entries: [Entry] = []
        var seenTypes = Set<String>()
        for typeValue in try object.syncArray("types") {
            guard let type = typeValue.stringValue else { throw HermesWireError(.invalidField, "types must hold strings") }
            // A type named twice lists each of its records twice.
            let repeated = !seenTypes.insert(type).inserted
            var seen = Set<Int64>()
            let typeObject = try (object[type] ?? .null).syncObject(type)
            // Taken out one by one, so that removing `revision` from a record's values does not
            // copy them (they are not shared any more).
            var attributes = try (typeObject["attributes"] ?? .object([:])).syncObject("\(type).attributes")
            for operation in Operation.allCases {
                for idValue in try typeObject.syncArray(operation.rawValue, in: type) {
                    guard let id = idValue.intValue else {
                        throw HermesWireError(.invalidField, "\(type).\(operation.rawValue) must hold integer ids")
                    }
                    guard !repeated, seen.insert(id).inserted else { throw HermesWireError(.invalidField, "\(type) \(id) is listed twice") }
                    var values = try (attributes.removeValue(forKey: String(id)) ?? (operation == .delete ? .object([:]) : .null))
                        .syncObject("\(type).attributes.\(id)")
                    let revision = values.removeValue(forKey: SyncRecord.revisionKey)?.intValue ?? 0
                    let oldID = values.removeValue(forKey: SyncRecord.oldIDKey)?.intValue
                    entries.append(
                        Entry(
                            operation,
                            SyncRecord(type: type, id: id, revision: revision, attributes: operation == .delete ? nil : values),
                            oldID: oldID
                        ))
                }
            }
        }
        self.init(
            sequence: object["sequence"]?.intValue,
            revision: object["revision"]?.intValue,
            conflict: object["conflict"]?.boolValue,
            reason: object["reason"]?.stringValue,
            entries: entries
        )
    }
}

/// A record's identity: its type and id.
public struct SyncRecordKey: Sendable, Hashable, Comparable {
    /// The record type's name.
    public var type: String
    /// The id.
    public var id: Int64

    /// A key.
    public init(type: String, id: Int64) {
        self.type = type
        self.id = id
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.type, lhs.id) < (rhs.type, rhs.id) }
}

extension JSONValue {
    /// The object this value holds, or an `invalidField` error naming it.
    /// - Parameter what: names the value in the error; made only then (it is asked once per record).
    func syncObject(_ what: @autoclosure () -> String) throws(HermesWireError) -> [String: JSONValue] {
        guard let object = objectValue else { throw HermesWireError(.invalidField, "\(what()) must be an object") }
        return object
    }
}

extension [String: JSONValue] {
    /// The change sets of a request's or an answer's `changeSets` member, unless they were read
    /// already (`read`).
    func syncChangeSets(unlessRead read: [SyncChangeSet]?) throws(HermesWireError) -> [SyncChangeSet] {
        if let read { return read }
        var changeSets: [SyncChangeSet] = []
        for value in try syncArray("changeSets") { changeSets.append(try SyncChangeSet(json: value)) }
        return changeSets
    }

    func syncArray(_ key: String, in what: String? = nil) throws(HermesWireError) -> [JSONValue] {
        let name = what.map { "\($0).\(key)" } ?? key
        guard let value = self[key] else { throw HermesWireError(.missingField, "\(name) is missing") }
        guard case .array(let array) = value else { throw HermesWireError(.invalidField, "\(name) must be an array") }
        return array
    }

    func syncInteger(_ key: String) throws(HermesWireError) -> Int64 {
        guard let value = self[key] else { throw HermesWireError(.missingField, "\(key) is missing") }
        guard let integer = value.intValue else { throw HermesWireError(.invalidField, "\(key) must be an integer") }
        return integer
    }
}
