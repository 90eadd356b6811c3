/// The data set that devices share: its record types, their attributes and relationships, and a
/// version that every sync request carries.
///
/// Declare it once in Swift and give the same value to the collector and to every device. A
/// relationship is an attribute holding the id of a record of another type (a foreign key).
///
/// ```swift
/// let schema = SyncSchema(version: 1, types: [
///     SyncEntityType("teams", attributes: [.init("name", .string)]),
///     SyncEntityType("players", attributes: [.init("name", .string), .init("team_id", .reference("teams"))]),
/// ])
/// ```
public struct SyncSchema: Sendable, Hashable {
    /// Changes whenever a type or an attribute changes; a change set made under another version is
    /// refused.
    public var version: Int64
    /// The record types, in the order the server applies them (referenced types first).
    public var types: [SyncEntityType]

    /// A schema.
    /// - Parameters:
    ///   - version: the schema version (a positive number).
    ///   - types: the record types; names are unique.
    public init(version: Int64, types: [SyncEntityType]) {
        self.version = version
        self.types = types
    }

    /// The type named `name`, if the schema has it.
    public func type(named name: String) -> SyncEntityType? {
        types.first { $0.name == name }
    }

    /// Every attribute of any type that refers to records of `target`, as (type, attribute).
    public func references(to target: String) -> [(type: String, attribute: String)] {
        types.flatMap { type in
            type.attributes.compactMap { attribute in
                attribute.kind == .reference(target) ? (type: type.name, attribute: attribute.name) : nil
            }
        }
    }
}

/// One record type of a ``SyncSchema``: a name (a table on each side) and its attributes.
public struct SyncEntityType: Sendable, Hashable {
    /// The name on the wire and of the table: lowercase letters, digits and `_`.
    public var name: String
    /// The attributes besides `id` and `revision`.
    public var attributes: [SyncAttribute]
    /// The string attribute naming the user who owns a record, for the ``SyncAccessRule/owner`` rule.
    public var owner: String?
    /// Who may receive its records (default: everyone).
    public var read: [SyncAccessRule]
    /// Who may create, update and delete its records (default: everyone).
    public var write: [SyncAccessRule]

    /// A record type.
    /// - Parameters:
    ///   - name: the type's name.
    ///   - attributes: its attributes.
    ///   - owner: the string attribute naming a record's owner, when a rule is ``SyncAccessRule/owner``.
    ///   - read: who may receive its records.
    ///   - write: who may create, update and delete them.
    public init(
        _ name: String, attributes: [SyncAttribute], owner: String? = nil, read: [SyncAccessRule] = [.everyone],
        write: [SyncAccessRule] = [.everyone]
    ) {
        self.name = name
        self.attributes = attributes
        self.owner = owner
        self.read = read
        self.write = write
    }

    /// The attribute named `name`, if the type has it.
    public func attribute(named name: String) -> SyncAttribute? {
        attributes.first { $0.name == name }
    }

    /// Checks the attributes of a created or updated record: every key known, every value of its
    /// attribute's kind or `null`.
    /// - Returns: `nil` when they are valid, or what is wrong.
    public func problem(in attributes: [String: JSONValue]) -> String? {
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where !SyncRecord.reservedKeys.contains(key) {
            guard let attribute = attribute(named: key) else { return "\(name) has no attribute \(key)" }
            if !attribute.kind.accepts(value) { return "\(name).\(key) is not a \(attribute.kind)" }
        }
        return nil
    }
}

/// An attribute of a ``SyncEntityType``.
public struct SyncAttribute: Sendable, Hashable {
    /// What an attribute holds.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        case string
        case integer
        case double
        case bool
        /// The id of a record of the named type (a foreign key).
        case reference(String)

        /// Whether `value` may be stored in an attribute of this kind (`null` always may).
        public func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (_, .null), (.string, .string), (.bool, .bool), (.double, .int), (.double, .double): true
            case (.integer, _), (.reference, _): value.intValue != nil
            default: false
            }
        }

        public var description: String {
            switch self {
            case .string: "string"
            case .integer: "integer"
            case .double: "double"
            case .bool: "bool"
            case .reference(let type): "reference to \(type)"
            }
        }
    }

    /// The name on the wire and of the column.
    public var name: String
    /// What it holds.
    public var kind: Kind

    /// An attribute.
    public init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The referenced type, for a relationship.
    public var referencedType: String? {
        if case .reference(let type) = kind { return type }
        return nil
    }
}
