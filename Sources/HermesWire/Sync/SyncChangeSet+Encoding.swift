extension SyncChangeSet {
    /// The change set's wire JSON: the bytes of `json.jsonBytes()` (keys sorted, compact), written
    /// from the entries at once rather than through nested ``JSONValue`` dictionaries, since an
    /// answer carries hundreds of records.
    /// - Throws: ``HermesWireError/Code/nonFiniteNumber`` for an attribute holding NaN or an infinity.
    public func jsonBytes() throws(HermesWireError) -> [UInt8] {
        var output: [UInt8] = []
        try write(into: &output, depth: 0)
        return output
    }

    /// The same as a `String`; see ``jsonBytes()``.
    public func jsonString() throws(HermesWireError) -> String {
        String(decoding: try jsonBytes(), as: UTF8.self)
    }

    /// What a member of the change set's object holds.
    private enum Member {
        case type(String), types, sequence(Int64), revision(Int64), conflict(Bool), reason(String)
    }

    /// Appends the wire JSON to `output`.
    /// - Parameter depth: how many arrays or objects enclose the change set.
    func write(into output: inout [UInt8], depth: Int) throws(HermesWireError) {
        let types = types
        var fields: [(key: String, value: Member)] = [("types", .types)]
        if let sequence { fields.append(("sequence", .sequence(sequence))) }
        if let revision { fields.append(("revision", .revision(revision))) }
        if let conflict { fields.append(("conflict", .conflict(conflict))) }
        if let reason { fields.append(("reason", .reason(reason))) }
        // A type named like one of the fields: `json` decides which one wins.
        guard !types.contains(where: { type in fields.contains { $0.key == type } }) else { return try json.write(into: &output, depth: depth) }
        output.append(UInt8(ascii: "{"))
        for (index, member) in (types.map { ($0, Member.type($0)) } + fields).sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.key, into: &output)
            output.append(UInt8(ascii: ":"))
            switch member.value {
            case .type(let type): try writeType(type, into: &output, depth: depth + 1)
            case .types: try JSONValue.array(types.map { .string($0) }).write(into: &output, depth: depth + 1)
            case .sequence(let value), .revision(let value): JSONValue.writeInteger(value, into: &output)
            case .conflict(let value): try JSONValue.bool(value).write(into: &output, depth: depth + 1)
            case .reason(let value): JSONValue.writeString(value, into: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// The id lists of a type's member, in key order, each with the bytes that open it.
    private static let lists: [(operation: Operation, opening: [UInt8])] = [Operation.create, .delete, .update].map {
        ($0, Array(",\"\($0.rawValue)\":[".utf8))
    }

    private static let attributesOpening = Array(#"{"attributes":{"#.utf8)
    private static let quoteColon = Array(#"":"#.utf8)

    /// Whether `first` written in decimal sorts before `second` written in decimal, as their
    /// texts compare byte by byte (`"-"` before every digit, a prefix before what it begins),
    /// without writing either.
    static func precedesAsText(_ first: Int64, _ second: Int64) -> Bool {
        guard (first < 0) == (second < 0) else { return first < 0 }
        let (left, right) = (first.magnitude, second.magnitude)
        let (leftDigits, rightDigits) = (digitCount(left), digitCount(right))
        if leftDigits == rightDigits { return left < right }
        if leftDigits < rightDigits {
            let head = right / power(of: rightDigits - leftDigits)
            return left <= head
        }
        let head = left / power(of: leftDigits - rightDigits)
        return head < right
    }

    /// The number of decimal digits of `value`.
    private static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// 10 to the `exponent` (below 20).
    private static func power(of exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// `{"attributes":{…},"create":[…],"delete":[…],"update":[…]}` for the entries of `type`.
    private func writeType(_ type: String, into output: inout [UInt8], depth: Int) throws(HermesWireError) {
        let typed = entries.indices.filter { entries[$0].record.type == type }
        // By id as text, as a dictionary's keys are written; of two entries with one id, the
        // later wins, as in a dictionary. Indices, not copies of the entries.
        let ids = typed.map { entries[$0].record.id }
        let order = ids.indices.sorted { ids[$0] == ids[$1] ? $0 < $1 : Self.precedesAsText(ids[$0], ids[$1]) }
        output.append(contentsOf: Self.attributesOpening)
        var written = 0
        for (position, index) in order.enumerated() where position + 1 == order.count || ids[order[position + 1]] != ids[index] {
            if written > 0 { output.append(UInt8(ascii: ",")) }
            written += 1
            output.append(UInt8(ascii: "\""))
            JSONValue.writeInteger(ids[index], into: &output)
            output.append(contentsOf: Self.quoteColon)
            try Self.writeValues(of: entries[typed[index]], into: &output, depth: depth + 2)
        }
        output.append(UInt8(ascii: "}"))
        for (operation, opening) in Self.lists {
            output.append(contentsOf: opening)
            var first = true
            for index in typed where entries[index].operation == operation {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeInteger(entries[index].record.id, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A record's attributes object: its attributes, `revision` and, in an answer, `__oldId__`.
    private static func writeValues(of entry: Entry, into output: inout [UInt8], depth: Int) throws(HermesWireError) {
        if entry.oldID == nil, case .encoded(let text) = entry.record.heldAttributes,
            SyncRecord.write(text, revision: entry.record.revision, into: &output)
        {
            return
        }
        var values: [(key: String, value: JSONValue)] = []
        values.reserveCapacity((entry.record.attributes?.count ?? 0) + 2)
        for (key, value) in entry.record.attributes ?? [:] where key != SyncRecord.revisionKey && (key != SyncRecord.oldIDKey || entry.oldID == nil) {
            values.append((key, value))
        }
        values.append((SyncRecord.revisionKey, .int(entry.record.revision)))
        if let oldID = entry.oldID { values.append((SyncRecord.oldIDKey, .int(oldID))) }
        output.append(UInt8(ascii: "{"))
        for (index, member) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.key, into: &output)
            output.append(UInt8(ascii: ":"))
            try member.value.write(into: &output, depth: depth + 1)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension [SyncChangeSet] {
    /// Appends the change sets as a JSON array.
    func write(into output: inout [UInt8], depth: Int) throws(HermesWireError) {
        output.append(UInt8(ascii: "["))
        for (index, changeSet) in enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            try changeSet.write(into: &output, depth: depth + 1)
        }
        output.append(UInt8(ascii: "]"))
    }
}
