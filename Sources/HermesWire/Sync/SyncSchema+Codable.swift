/// The schema's JSON form, for a collector that reads it from a file
/// (`hermes collector serve --sync-schema schema.json`):
///
/// ```json
/// {"version": 1, "types": [
///   {"name": "teams", "attributes": [{"name": "name", "kind": "string"}]},
///   {"name": "players", "attributes": [
///     {"name": "name", "kind": "string"},
///     {"name": "team_id", "kind": "reference", "references": "teams"}]}
/// ]}
/// ```
///
/// `kind` is `string`, `integer`, `double`, `bool` or `reference` (with `references`, the type
/// pointed to). A type may add who may read and write its records (``SyncAccessRule``):
/// `"owner": "owner_id", "read": "everyone", "write": ["owner", "role:admin"]`. Decoding checks
/// the schema whole (``SyncSchema/definitionProblem``).
extension SyncSchema: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, types
    }

    /// Reads a schema from its JSON form.
    /// - Throws: `DecodingError` for a missing or mistyped field, or a schema that
    ///   ``definitionProblem`` finds wrong (`dataCorrupted`, with what is wrong).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(version: try container.decode(Int64.self, forKey: .version), types: try container.decode([SyncEntityType].self, forKey: .types))
        if let problem = definitionProblem {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(types, forKey: .types)
    }

    /// What is wrong with the schema as a whole, or `nil`: a version below 1, no types, a name
    /// that is not lowercase letters, digits and `_` starting with a letter, a type or attribute
    /// named twice, an attribute named `id` or `revision`, a reference to a type the schema lacks,
    /// an owner rule without a string owner attribute.
    public var definitionProblem: String? {
        guard version >= 1 else { return "the schema version must be at least 1" }
        guard !types.isEmpty else { return "the schema has no types" }
        var typeNames = Set<String>()
        for type in types {
            guard Self.isName(type.name) else { return "type name \(type.name) must be lowercase letters, digits and _, starting with a letter" }
            guard typeNames.insert(type.name).inserted else { return "type \(type.name) is declared twice" }
            var attributeNames = Set<String>()
            for attribute in type.attributes {
                guard Self.isName(attribute.name) else {
                    return "\(type.name).\(attribute.name) must be lowercase letters, digits and _, starting with a letter"
                }
                guard attribute.name != "id", !SyncRecord.reservedKeys.contains(attribute.name) else {
                    return "\(type.name).\(attribute.name): id and revision are not attributes"
                }
                guard attributeNames.insert(attribute.name).inserted else { return "\(type.name).\(attribute.name) is declared twice" }
            }
            if let problem = type.accessProblem { return problem }
        }
        for type in types {
            for attribute in type.attributes {
                if let target = attribute.referencedType, !typeNames.contains(target) {
                    return "\(type.name).\(attribute.name) refers to \(target), not a type of the schema"
                }
            }
        }
        return nil
    }

    private static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
        }
    }
}

extension SyncEntityType: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, attributes, owner, read, write
    }

    /// Reads a type; `owner`, `read` and `write` are optional (`read` and `write` default to
    /// everyone), each rule list one rule (`"owner"`) or an array of them (`["owner", "role:admin"]`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name), attributes: try container.decode([SyncAttribute].self, forKey: .attributes),
            owner: try container.decodeIfPresent(String.self, forKey: .owner), read: try Self.rules(in: container, forKey: .read),
            write: try Self.rules(in: container, forKey: .write))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(attributes, forKey: .attributes)
        try container.encodeIfPresent(owner, forKey: .owner)
        if read != [.everyone] { try container.encode(read.map(\.description), forKey: .read) }
        if write != [.everyone] { try container.encode(write.map(\.description), forKey: .write) }
    }

    private static func rules(in container: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys) throws -> [SyncAccessRule] {
        guard container.contains(key) else { return [.everyone] }
        let texts: [String]
        if let text = try? container.decode(String.self, forKey: key) {
            texts = [text]
        } else {
            texts = try container.decode([String].self, forKey: key)
        }
        return try texts.map { text in
            guard let rule = SyncAccessRule(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(text) is not a rule: everyone, owner or role:NAME")
            }
            return rule
        }
    }
}

extension SyncAttribute: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, kind, references
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let kind: Kind
        switch try container.decode(String.self, forKey: .kind) {
        case "string": kind = .string
        case "integer": kind = .integer
        case "double": kind = .double
        case "bool": kind = .bool
        case "reference": kind = .reference(try container.decode(String.self, forKey: .references))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "\(name): kind \(other) is not string, integer, double, bool or reference"
            )
        }
        self.init(name, kind)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        switch kind {
        case .reference(let type):
            try container.encode("reference", forKey: .kind)
            try container.encode(type, forKey: .references)
        default:
            try container.encode(kind.description, forKey: .kind)
        }
    }
}

extension SyncEntityType {
    /// What is wrong with the type's access rules, or `nil`: an owner rule without an owner, or
    /// an owner that is not one of its string attributes.
    var accessProblem: String? {
        if let owner, attribute(named: owner)?.kind != .string { return "\(name): owner \(owner) must be one of its string attributes" }
        if owner == nil, (read + write).contains(.owner) { return "\(name): the owner rule needs an owner attribute" }
        return nil
    }
}
