/// One record as sync carries it: its type, id, the revision it was last written at (or, in a
/// device's change, the revision it was based on), and its attributes (`nil` for a deleted record).
public struct SyncRecord: Sendable, Hashable {
    /// How the attributes are held: as values, or as a store's JSON object text written into
    /// an answer as it is (see ``init(type:id:revision:encodedAttributes:)``).
    enum Attributes: Sendable {
        case values([String: JSONValue]?)
        case encoded([UInt8])
    }

    /// The keys in a record's `attributes` object on the wire that are not attributes.
    public static let reservedKeys: Set<String> = [revisionKey, oldIDKey]
    /// The wire key of the revision inside a record's attributes.
    public static let revisionKey = "revision"
    /// The wire key, in an answer, of the temporary id a created record had on its device.
    public static let oldIDKey = "__oldId__"

    /// The record type's name.
    public var type: String
    /// The server id (positive), or a device's temporary id (negative) before the server assigned one.
    public var id: Int64
    /// The revision: last written at (from the server) or based on (from a device; 0 for a create).
    public var revision: Int64
    /// How the attributes are held.
    var heldAttributes: Attributes

    /// The attributes, without `revision`; `nil` when the record is deleted.
    public var attributes: [String: JSONValue]? {
        get {
            switch heldAttributes {
            case .values(let values): values
            // The text is one this module wrote (see the initializer): it parses.
            case .encoded(let bytes): (try? JSONValue(parsing: bytes))?.objectValue ?? [:]
            }
        }
        set { heldAttributes = .values(newValue) }
    }

    /// A record.
    public init(type: String, id: Int64, revision: Int64, attributes: [String: JSONValue]?) {
        self.type = type
        self.id = id
        self.revision = revision
        self.heldAttributes = .values(attributes)
    }

    /// A live record whose attributes are a store's JSON object text, written into an answer as
    /// it is rather than parsed and encoded again; ``attributes`` parses it when asked.
    /// - Parameter encodedAttributes: the bytes of `JSONValue.object(attributes).jsonBytes()`,
    ///   without `revision`, as a store wrote them.
    package init(type: String, id: Int64, revision: Int64, encodedAttributes: [UInt8]) {
        self.type = type
        self.id = id
        self.revision = revision
        self.heldAttributes = .encoded(encodedAttributes)
    }

    /// Whether this is a tombstone (a deleted record).
    public var isDeleted: Bool {
        if case .values(nil) = heldAttributes { true } else { false }
    }

    public static func == (lhs: SyncRecord, rhs: SyncRecord) -> Bool {
        lhs.type == rhs.type && lhs.id == rhs.id && lhs.revision == rhs.revision && lhs.attributes == rhs.attributes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(id)
        hasher.combine(revision)
        hasher.combine(attributes)
    }
}
