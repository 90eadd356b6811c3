import HermesWire

/// Writes a record's meta: the caller's fields merged with the common fields (specification §4).
///
/// The bytes are exactly those of `JSONValue.object(RecordMeta.merge(…)).jsonBytes()`, but the
/// fields every record of this client shares (app, device, SDK) are encoded once, at start, into
/// a template in key order, and the caller's sorted fields are spliced in: `send` builds no
/// merged dictionary and copies the constant fields as bytes. A caller's key that is not ASCII
/// or is named like a common field takes the general path through ``RecordMeta``.
///
/// Global properties are in the template too, under the caller's fields: a caller's key that
/// names one also takes the general path, where the caller's value wins. A property named like
/// a common field is dropped (common fields never move). The client makes a new encoder when
/// its identity or properties change, never on `send`.
struct MetaEncoder: Sendable {
    /// The common fields that change from record to record.
    struct Varying {
        var reportID: String
        var createTime: Int64
        var monitorType: String
        var isBusiness: Bool
        var namespace: String
    }

    private enum VaryingField: Sendable {
        case reportID, createTime, monitorType, isBusiness, namespace
    }

    /// One common field in ``template``: `"KEY":value` for a constant, `"KEY":` for a varying
    /// one; fields are separated by commas.
    private struct Field: Sendable {
        let start: Int
        let end: Int
        /// The key's bytes, inside the quotes.
        let key: Range<Int>
        let varying: VaryingField?
    }

    private let template: [UInt8]
    /// Every common field, sorted by key.
    private let fields: [Field]
    let constant: [String: JSONValue]
    /// The global properties, under the caller's fields.
    private let properties: [String: JSONValue]
    private static let commonNames = Set(RecordField.all)

    /// - Parameters:
    ///   - constant: the common fields that are the same for every record.
    ///   - properties: the global properties (finite values; names of common fields are dropped).
    init(constant: [String: JSONValue], properties: [String: JSONValue] = [:]) {
        self.constant = constant
        let properties = properties.filter { !Self.commonNames.contains($0.key) }
        self.properties = properties
        let varying: [(String, VaryingField?)] = [
            (RecordField.reportID, .reportID), (RecordField.createTime, .createTime), (RecordField.monitorType, .monitorType),
            (RecordField.isBusiness, .isBusiness), (RecordField.namespace, .namespace),
        ]
        var template: [UInt8] = []
        var fields: [Field] = []
        let fixed = constant.keys.map { ($0, VaryingField?.none) } + properties.keys.map { ($0, VaryingField?.none) }
        for (key, field) in (varying + fixed).sorted(by: { $0.0 < $1.0 }) {
            if !template.isEmpty { template.append(UInt8(ascii: ",")) }
            let start = template.count
            JSONValue.writeString(key, into: &template)
            template.append(UInt8(ascii: ":"))
            if field == nil { template += (try? (constant[key] ?? properties[key])?.jsonBytes()) ?? Array("null".utf8) }
            fields.append(Field(start: start, end: template.count, key: (start + 1)..<(start + 1 + key.utf8.count), varying: field))
        }
        self.template = template
        self.fields = fields
    }

    /// The merged meta's JSON bytes. The fields the collector checks are always `varying`'s.
    /// - Parameters:
    ///   - user: the caller's meta.
    ///   - varying: this record's identity and time.
    ///   - type: the type the caller passed to `send`, which selects the merge rule.
    /// - Throws: ``HermesWireError/Code/nonFiniteNumber`` for NaN or an infinity in `user`,
    ///   ``HermesWireError/Code/nestingTooDeep`` for a value the collector could not read back.
    func encode(user: [String: JSONValue], varying: Varying, type: String) throws(HermesWireError) -> [UInt8] {
        let spliced = try withUnsafeTemporaryAllocation(of: Member.self, capacity: user.count) { members throws(HermesWireError) in
            guard let count = sortSplicable(user, into: members) else { return [UInt8]?.none }
            defer { Self.destroy(members, count: count) }
            return try splice(UnsafeMutableBufferPointer(rebasing: members[..<count]), varying)
        }
        if let spliced { return spliced }
        let withProperties = properties.isEmpty ? user : properties.merging(user) { _, callerValue in callerValue }
        return try JSONValue.object(RecordMeta.merge(user: withProperties, common: common(varying), type: type)).jsonBytes()
    }

    /// One of the caller's fields.
    private struct Member {
        let key: String
        let value: JSONValue
        /// Where it goes: before the common field at this index in ``fields`` (their count:
        /// after them all).
        var slot = 0
        /// A value that is not a string, an integer, a boolean or null, encoded before the meta
        /// is written.
        var encoded: [UInt8]?

        init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Puts `user`'s members into `members` and sorts them there by key (no array), or returns
    /// `nil`, leaving `members` empty, at the first key that is not ``isSplicable(_:)``.
    /// - Returns: how many members were put there.
    private func sortSplicable(_ user: [String: JSONValue], into members: UnsafeMutableBufferPointer<Member>) -> Int? {
        guard let base = members.baseAddress else { return 0 }
        var count = 0
        for (key, value) in user {
            guard isSplicable(key) else {
                Self.destroy(members, count: count)
                return nil
            }
            (base + count).initialize(to: Member(key: key, value: value))
            count += 1
        }
        var filled = UnsafeMutableBufferPointer(rebasing: members[..<count])
        filled.sort { $0.key < $1.key }
        return count
    }

    /// Ends the first `count` members one by one: each moved out is released by code made for
    /// ``Member``, where `deinitialize(count:)` goes through the runtime's generic array destroy.
    private static func destroy(_ members: UnsafeMutableBufferPointer<Member>, count: Int) {
        guard let base = members.baseAddress else { return }
        for index in 0..<count { _ = (base + index).move() }
    }

    /// The meta's bytes: the template with the sorted `members` spliced in where their keys sort
    /// and the varying fields written in their places. The meta is written into a stack buffer
    /// and its array allocated once, at the size written; one that does not fit there (rare:
    /// the meta of most records is half that size) is written again into a growing array.
    private func splice(_ members: UnsafeMutableBufferPointer<Member>, _ varying: Varying) throws(HermesWireError) -> [UInt8] {
        // Each member's slot, from the last: a caller's key sorts after most common fields (they
        // are upper case), so most members take one comparison.
        var slot = fields.count
        for index in members.indices.reversed() {
            while slot > 0, Self.key(members[index].key, precedes: fields[slot - 1].key, in: template) { slot -= 1 }
            members[index].slot = slot
            try Self.encodeCompound(&members[index])
        }
        // Appended to an array reserved at its size: the array's own uninitialized initializer
        // looks its storage type up in the runtime on every call.
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.stackBytes) { buffer -> [UInt8]? in
            var output = JSONOutputCursor(buffer)
            write(members, varying, into: &output)
            guard !output.overflowed else { return nil }
            var meta: [UInt8] = []
            meta.reserveCapacity(output.written.count)
            meta.append(contentsOf: output.written)
            return meta
        }
        if let written { return written }
        var meta: [UInt8] = []
        meta.reserveCapacity(2 * Self.stackBytes)
        write(members, varying, into: &meta)
        return meta
    }

    /// The stack buffer a meta is first written into: the most `withUnsafeTemporaryAllocation`
    /// puts on the stack without first asking the system how much stack is left.
    private static let stackBytes = 1_024

    /// Writes the meta: the template's runs of constant fields, with the varying fields and the
    /// caller's `members` (sorted, each with its slot) where they go.
    private func write(_ members: UnsafeMutableBufferPointer<Member>, _ varying: Varying, into output: inout some JSONOutput) {
        output.append(UInt8(ascii: "{"))
        template.withUnsafeBufferPointer { template in
            // Constant fields are copied in runs that end at a varying field or a caller's field.
            var run = 0
            var next = 0
            for (index, field) in fields.enumerated() {
                if next < members.count, members[next].slot == index {
                    output.append(bytes: UnsafeBufferPointer(rebasing: template[run..<field.start]))
                    run = field.start
                    repeat {
                        Self.write(members[next], into: &output)
                        output.append(UInt8(ascii: ","))
                        next += 1
                    } while next < members.count && members[next].slot == index
                }
                if let value = field.varying {
                    output.append(bytes: UnsafeBufferPointer(rebasing: template[run..<field.end]))
                    Self.write(value, varying, into: &output)
                    run = field.end
                }
            }
            output.append(bytes: UnsafeBufferPointer(rebasing: template[run...]))
            for member in members[next...] {
                output.append(UInt8(ascii: ","))
                Self.write(member, into: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Whether a caller's ASCII `key` sorts before a common field's key (never equal: such a key
    /// takes the general path).
    private static func key(_ key: String, precedes fieldKey: Range<Int>, in template: [UInt8]) -> Bool {
        var key = key
        return key.withUTF8 { $0.lexicographicallyPrecedes(template[fieldKey]) }
    }

    /// The common fields of a record as a dictionary.
    func common(_ varying: Varying) -> [String: JSONValue] {
        var common = constant
        common[RecordField.reportID] = .string(varying.reportID)
        common[RecordField.createTime] = .int(varying.createTime)
        common[RecordField.monitorType] = .string(varying.monitorType)
        common[RecordField.isBusiness] = .bool(varying.isBusiness)
        common[RecordField.namespace] = .string(varying.namespace)
        return common
    }

    /// An ASCII key (whose string order is its byte order) that no common field and no global
    /// property has. Common names are upper case, so most keys are cleared by their first byte.
    private func isSplicable(_ key: String) -> Bool {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        if !properties.isEmpty, properties[key] != nil { return false }
        guard let first = key.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return true }
        return !Self.commonNames.contains(key)
    }

    /// Encodes `member`'s value if it is not a string, an integer, a boolean or null (one level
    /// deep), which is where it can fail.
    private static func encodeCompound(_ member: inout Member) throws(HermesWireError) {
        switch member.value {
        case .string, .int, .bool, .null:
            return
        case .double, .array, .object:
            var encoded: [UInt8] = []
            try member.value.write(into: &encoded, depth: 1)
            member.encoded = encoded
        }
    }

    /// Writes `"key":value`, a member of the meta object.
    private static func write(_ member: Member, into output: inout some JSONOutput) {
        JSONValue.writeString(member.key, into: &output)
        output.append(UInt8(ascii: ":"))
        if let encoded = member.encoded {
            encoded.withUnsafeBufferPointer { output.append(bytes: $0) }
            return
        }
        switch member.value {
        case .string(let string): JSONValue.writeString(string, into: &output)
        case .int(let integer): JSONValue.writeInteger(integer, into: &output)
        case .bool(let bool): write(bool, into: &output)
        case .null: write("null", into: &output)
        case .double, .array, .object: assertionFailure("MetaEncoder: a compound value was not encoded")
        }
    }

    private static func write(_ field: VaryingField, _ varying: Varying, into output: inout some JSONOutput) {
        switch field {
        case .reportID: JSONValue.writeString(varying.reportID, into: &output)
        case .createTime: JSONValue.writeInteger(varying.createTime, into: &output)
        case .monitorType: JSONValue.writeString(varying.monitorType, into: &output)
        case .isBusiness: write(varying.isBusiness, into: &output)
        case .namespace: JSONValue.writeString(varying.namespace, into: &output)
        }
    }

    private static func write(_ bool: Bool, into output: inout some JSONOutput) {
        write(bool ? "true" : "false", into: &output)
    }

    private static func write(_ literal: StaticString, into output: inout some JSONOutput) {
        literal.withUTF8Buffer { output.append(bytes: $0) }
    }
}
