/// What `POST /v1/sync` answers: first the outcome of each change set the device sent (in its
/// order, with `sequence` and `conflict`), then one page of the change sets the device missed, by
/// revision.
///
/// The device applies the whole answer and stores ``maxRevision`` and ``cursor`` in one
/// transaction; while ``hasMore`` is true it asks again at once for the next page.
///
/// ```json
/// {"maxRevision":1001,"hasMore":false,"reset":false,"changeSets":[…]}
/// ```
public struct SyncAnswer: Sendable, Hashable {
    /// The revision the device is at once it stored this answer.
    public var maxRevision: Int64
    /// Whether more missed change sets wait: ask again with the new ``maxRevision``.
    public var hasMore: Bool
    /// The device's revision was older than the history the server keeps: it must drop its copy of
    /// the data set (keeping its unsent changes) before storing this answer, the first page of a
    /// full copy.
    public var reset: Bool
    /// Where a full copy stands, to send back with the next request; `nil` when there is none.
    public var cursor: String?
    /// The outcomes of the device's change sets, then the missed change sets.
    public var changeSets: [SyncChangeSet]

    /// An answer.
    public init(maxRevision: Int64, hasMore: Bool = false, reset: Bool = false, cursor: String? = nil, changeSets: [SyncChangeSet]) {
        self.maxRevision = maxRevision
        self.hasMore = hasMore
        self.reset = reset
        self.cursor = cursor
        self.changeSets = changeSets
    }

    /// The outcomes of the device's own change sets (those with a `sequence`).
    public var outcomes: [SyncChangeSet] { changeSets.filter { $0.sequence != nil } }
    /// The change sets the device missed (those without a `sequence`).
    public var missed: [SyncChangeSet] { changeSets.filter { $0.sequence == nil } }

    /// The answer as its wire JSON.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "maxRevision": .int(maxRevision), "hasMore": .bool(hasMore), "reset": .bool(reset),
            "changeSets": .array(changeSets.map(\.json)),
        ]
        if let cursor { object["cursor"] = .string(cursor) }
        return .object(object)
    }

    /// The answer's wire JSON: the bytes of `json.jsonBytes()`, written without building the
    /// nested values (see ``SyncChangeSet/jsonBytes()``).
    /// - Throws: ``HermesWireError/Code/nonFiniteNumber`` for an attribute holding NaN or an infinity.
    public func jsonBytes() throws(HermesWireError) -> [UInt8] {
        var output: [UInt8] = Array(#"{"changeSets":"#.utf8)
        try changeSets.write(into: &output, depth: 1)
        if let cursor {
            output.append(contentsOf: #","cursor":"#.utf8)
            JSONValue.writeString(cursor, into: &output)
        }
        output.append(contentsOf: ",\"hasMore\":\(hasMore),\"maxRevision\":\(maxRevision),\"reset\":\(reset)}".utf8)
        return output
    }

    /// Reads an answer from its wire JSON bytes.
    /// - Throws: ``HermesWireError`` (`invalidJSON`, `missingField`, `invalidField`) saying what is wrong.
    public init(jsonBytes: some Collection<UInt8>) throws(HermesWireError) {
        // Straight from the bytes when they are well formed; otherwise through `JSONValue`,
        // which reads them the same way and says what is wrong.
        if let (fields, changeSets) = SyncWireReader.envelope(jsonBytes) {
            try self.init(fields: fields, changeSets: changeSets)
        } else {
            try self.init(json: JSONValue(parsing: jsonBytes))
        }
    }

    /// Reads an answer from its wire JSON.
    /// - Throws: ``HermesWireError`` (`missingField`, `invalidField`) saying what is wrong.
    public init(json: JSONValue) throws(HermesWireError) {
        try self.init(fields: try json.syncObject("the answer"), changeSets: nil)
    }

    /// An answer from its members, its change sets read already or (`nil`) still in `fields`.
    private init(fields: [String: JSONValue], changeSets: [SyncChangeSet]?) throws(HermesWireError) {
        let changeSets = try fields.syncChangeSets(unlessRead: changeSets)
        self.init(
            maxRevision: try fields.syncInteger("maxRevision"), hasMore: fields["hasMore"]?.boolValue ?? false,
            reset: fields["reset"]?.boolValue ?? false, cursor: fields["cursor"]?.stringValue, changeSets: changeSets)
    }
}
