/// One record as sync carries it: its type, id, the revision it was last written at (or, in a
/// device's change, the revision it was based on), and its attributes (`nil` for a deleted record).
public struct SyncRecord: Sendable, Hashable {
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
    /// The attributes, without `revision`; `nil` when the record is deleted.
    public var attributes: [String: JSONValue]?

    /// A record.
    public init(type: String, id: Int64, revision: Int64, attributes: [String: JSONValue]?) {
        self.type = type
        self.id = id
        self.revision = revision
        self.attributes = attributes
    }

    /// Whether this is a tombstone (a deleted record).
    public var isDeleted: Bool { attributes == nil }
}
