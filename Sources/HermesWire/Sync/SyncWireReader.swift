/// Reads the sync wire straight from its JSON bytes into change sets, without the tree of
/// ``JSONValue`` dictionaries that ``SyncChangeSet/init(json:)`` walks (a dictionary for every
/// change set, type and id list, then copies of each record's as it takes out `revision`): an
/// answer carries thousands of records, and that tree cost more than reading them.
///
/// It reads what well-formed bytes hold, with the same rules as the reading through
/// ``JSONValue``. At anything else (invalid JSON, a missing or mistyped member, a type named like
/// a field, an id listed twice) it gives up and returns `nil`: the caller then reads the bytes
/// through ``JSONValue``, which says what is wrong.
enum SyncWireReader {
    /// The change sets of a request or an answer (its `changeSets` member) and its other members,
    /// or `nil` to read the bytes through ``JSONValue``.
    static func envelope(_ bytes: some Collection<UInt8>) -> (fields: [String: JSONValue], changeSets: [SyncChangeSet])? {
        try? JSONParser.read(bytes) { parser throws(HermesWireError) in
            var changeSets: [SyncChangeSet]?
            var fields: [String: JSONValue] = [:]
            try parser.readMembers(depth: 0) { key, parser throws(HermesWireError) in
                if key == "changeSets" {
                    var read: [SyncChangeSet] = []
                    try parser.readElements(depth: 1) { parser throws(HermesWireError) in read.append(try changeSet(&parser, depth: 2)) }
                    changeSets = read
                } else {
                    fields[key] = try parser.parseValue(depth: 1)
                }
            }
            guard let changeSets else { throw giveUp }
            return (fields, changeSets)
        }
    }

    /// The change set in `bytes`, or `nil` to read them through ``JSONValue``.
    static func changeSet(_ bytes: some Collection<UInt8>) -> SyncChangeSet? {
        try? JSONParser.read(bytes) { parser throws(HermesWireError) in try changeSet(&parser, depth: 0) }
    }

    /// Thrown to give up; never seen by a caller.
    private static let giveUp = HermesWireError(.invalidField, "not read directly")

    /// The members of a change set that are not type names.
    private static let changeSetFields: Set<String> = ["types", "sequence", "revision", "conflict", "reason"]

    /// A change set (at `depth`), as ``SyncChangeSet/init(json:)`` reads it.
    private static func changeSet(_ parser: inout JSONParser, depth: Int) throws(HermesWireError) -> SyncChangeSet {
        var fields: [String: JSONValue] = [:]
        var typed: [String: TypeMember] = [:]
        try parser.readMembers(depth: depth) { key, parser throws(HermesWireError) in
            if changeSetFields.contains(key) {
                fields[key] = try parser.parseValue(depth: depth + 1)
            } else {
                typed[key] = try TypeMember(&parser, depth: depth + 1)
            }
        }
        guard case .array(let types) = fields["types"] else { throw giveUp }
        var entries: [SyncChangeSet.Entry] = []
        var seenTypes = Set<String>()
        for typeValue in types {
            guard let type = typeValue.stringValue, seenTypes.insert(type).inserted, var member = typed.removeValue(forKey: type) else {
                throw giveUp
            }
            try member.entries(of: type, into: &entries)
        }
        return SyncChangeSet(
            sequence: fields["sequence"]?.intValue, revision: fields["revision"]?.intValue, conflict: fields["conflict"]?.boolValue,
            reason: fields["reason"]?.stringValue, entries: entries)
    }

    /// A change set's member for one type: its records' values by id and its id lists.
    private struct TypeMember {
        /// The records' values by id; `nil` for a value that is not an object.
        var attributes: [Int64: Values?] = [:]
        /// The `create`, `update` and `delete` members as read.
        var lists: [SyncChangeSet.Operation: JSONValue] = [:]
        /// Whether the member is an object whose `attributes` (when present) is one too.
        var isWellFormed = true

        /// One record's values, its `revision` and `__oldId__` apart.
        struct Values {
            var attributes: [String: JSONValue]
            var revision: JSONValue?
            var oldID: JSONValue?
        }

        /// Reads the member at `depth`; a value of another shape is read and marked.
        init(_ parser: inout JSONParser, depth: Int) throws(HermesWireError) {
            guard parser.startsObject else {
                _ = try parser.parseValue(depth: depth)
                isWellFormed = false
                return
            }
            try parser.readMembers(depth: depth) { key, parser throws(HermesWireError) in
                if key == "attributes" {
                    guard parser.startsObject else {
                        _ = try parser.parseValue(depth: depth + 1)
                        isWellFormed = false
                        return
                    }
                    attributes = Dictionary(minimumCapacity: 16)
                    try parser.readMembers(depth: depth + 1) { id, parser throws(HermesWireError) in
                        // An id is looked up by its canonical text, as `String(id)`: any other key is never found.
                        guard let number = Int64(id), String(number) == id else {
                            _ = try parser.parseValue(depth: depth + 2)
                            return
                        }
                        attributes[number] = try Self.values(&parser, depth: depth + 2)
                    }
                } else if let operation = SyncChangeSet.Operation(rawValue: key) {
                    lists[operation] = try parser.parseValue(depth: depth + 1)
                } else {
                    _ = try parser.parseValue(depth: depth + 1)
                }
            }
        }

        /// A record's values at `depth`, or `nil` for a value that is not an object.
        private static func values(_ parser: inout JSONParser, depth: Int) throws(HermesWireError) -> Values? {
            guard parser.startsObject else {
                _ = try parser.parseValue(depth: depth)
                return nil
            }
            // Of a key given twice, the later value stands, as in a dictionary parsed from JSON.
            var values = Values(attributes: Dictionary(minimumCapacity: 6))
            try parser.readMembers(depth: depth) { key, parser throws(HermesWireError) in
                let value = try parser.parseValue(depth: depth + 1)
                switch key {
                case SyncRecord.revisionKey: values.revision = value
                case SyncRecord.oldIDKey: values.oldID = value
                default: values.attributes[key] = value
                }
            }
            return values
        }

        /// Appends the entries of `type`: its created, then updated, then deleted records.
        mutating func entries(of type: String, into entries: inout [SyncChangeSet.Entry]) throws(HermesWireError) {
            guard isWellFormed else { throw giveUp }
            var seen = Set<Int64>(minimumCapacity: attributes.count)
            entries.reserveCapacity(entries.count + attributes.count)
            for operation in SyncChangeSet.Operation.allCases {
                guard case .array(let ids) = lists[operation] else { throw giveUp }
                for idValue in ids {
                    guard let id = idValue.intValue, seen.insert(id).inserted else { throw giveUp }
                    let found = attributes.removeValue(forKey: id)
                    let values: Values
                    switch (found, operation) {
                    case (.some(.some(let read)), _): values = read
                    case (.none, .delete): values = Values(attributes: [:])
                    default: throw giveUp
                    }
                    entries.append(
                        SyncChangeSet.Entry(
                            operation,
                            SyncRecord(
                                type: type, id: id, revision: values.revision?.intValue ?? 0,
                                attributes: operation == .delete ? nil : values.attributes),
                            oldID: values.oldID?.intValue))
                }
            }
        }
    }
}
