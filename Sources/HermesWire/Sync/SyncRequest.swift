/// What a device sends to `POST /v1/sync`: who it is, the schema version and revision its data is
/// at, where its catch-up stands, and the change sets it saved since its last answer, in order.
///
/// ```json
/// {"clientID":"ipad-7","schemaVersion":1,"maxRevision":1000,"changeSets":[…]}
/// ```
public struct SyncRequest: Sendable, Hashable {
    /// The device's stable id; with ``SyncChangeSet/sequence`` it makes a change set unique, so a
    /// change set sent twice is applied once.
    public var clientID: String
    /// The ``SyncSchema/version`` the device's data and change sets follow.
    public var schemaVersion: Int64
    /// The last revision whose changes the device has stored.
    public var maxRevision: Int64
    /// The ``SyncAnswer/cursor`` of the device's last answer, when it had one.
    public var cursor: String?
    /// The change sets to apply, in the order the device saved them.
    public var changeSets: [SyncChangeSet]

    /// A request.
    public init(clientID: String, schemaVersion: Int64, maxRevision: Int64, cursor: String? = nil, changeSets: [SyncChangeSet]) {
        self.clientID = clientID
        self.schemaVersion = schemaVersion
        self.maxRevision = maxRevision
        self.cursor = cursor
        self.changeSets = changeSets
    }

    /// The request as its wire JSON.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "clientID": .string(clientID), "schemaVersion": .int(schemaVersion), "maxRevision": .int(maxRevision),
            "changeSets": .array(changeSets.map(\.json)),
        ]
        if let cursor { object["cursor"] = .string(cursor) }
        return .object(object)
    }

    /// The request's wire JSON: the bytes of `json.jsonBytes()`, written without building the
    /// nested values (see ``SyncChangeSet/jsonBytes()``).
    /// - Throws: ``HermesWireError/Code/nonFiniteNumber`` for an attribute holding NaN or an infinity.
    public func jsonBytes() throws(HermesWireError) -> [UInt8] {
        var output: [UInt8] = Array(#"{"changeSets":"#.utf8)
        try changeSets.write(into: &output, depth: 1)
        output.append(contentsOf: #","clientID":"#.utf8)
        JSONValue.writeString(clientID, into: &output)
        if let cursor {
            output.append(contentsOf: #","cursor":"#.utf8)
            JSONValue.writeString(cursor, into: &output)
        }
        output.append(contentsOf: ",\"maxRevision\":\(maxRevision),\"schemaVersion\":\(schemaVersion)}".utf8)
        return output
    }

    /// Reads a request from its wire JSON bytes.
    /// - Throws: ``HermesWireError`` (`invalidJSON`, `missingField`, `invalidField`) saying what is wrong.
    public init(jsonBytes: some Collection<UInt8>) throws(HermesWireError) {
        // Straight from the bytes when they are well formed (see `SyncWireReader`).
        if let (fields, changeSets) = SyncWireReader.envelope(jsonBytes) {
            try self.init(fields: fields, changeSets: changeSets)
        } else {
            try self.init(fields: JSONValue(parsing: jsonBytes).syncObject("the request"), changeSets: nil)
        }
    }

    /// A request from its members, its change sets read already or (`nil`) still in `fields`.
    private init(fields: [String: JSONValue], changeSets: [SyncChangeSet]?) throws(HermesWireError) {
        guard let clientID = fields["clientID"]?.stringValue, !clientID.isEmpty, clientID.utf8.count <= 200 else {
            throw HermesWireError(.invalidField, "clientID must be a string of 1 to 200 bytes")
        }
        if let problem = CheckedText.problem(clientID, name: "clientID") { throw problem }
        let changeSets = try fields.syncChangeSets(unlessRead: changeSets)
        self.init(
            clientID: clientID,
            schemaVersion: try fields.syncInteger("schemaVersion"),
            maxRevision: max(0, try fields.syncInteger("maxRevision")),
            cursor: fields["cursor"]?.stringValue,
            changeSets: changeSets
        )
    }
}
