package import HermesWire

extension SyncRecord {
    /// The record's type and id.
    package var key: SyncRecordKey { SyncRecordKey(type: type, id: id) }

    /// The attributes as a store keeps them: a JSON object's text, `nil` for a tombstone.
    package var storedAttributes: String? {
        get throws(HermesWireError) {
            guard let attributes else { return nil }
            return try JSONValue.object(attributes).jsonString()
        }
    }

    /// A record read from a store's row.
    /// - Parameter storedAttributes: the attributes' JSON text, `nil` for a tombstone.
    /// - Throws: `HermesWireError` if the text is not JSON.
    package init(type: String, id: Int64, revision: Int64, storedAttributes: String?) throws(HermesWireError) {
        var attributes: [String: JSONValue]?
        if let storedAttributes { attributes = try JSONValue(parsing: Array(storedAttributes.utf8)).objectValue ?? [:] }
        self.init(type: type, id: id, revision: revision, attributes: attributes)
    }

    /// A record of a catch-up page read from a store's row: its attributes' text is written into
    /// the answer as stored, not parsed and encoded again.
    /// - Parameter storedAttributes: the attributes' JSON text, `nil` for a tombstone.
    package init(type: String, id: Int64, revision: Int64, pageAttributes storedAttributes: String?) {
        if let storedAttributes {
            self.init(type: type, id: id, revision: revision, encodedAttributes: Array(storedAttributes.utf8))
        } else {
            self.init(type: type, id: id, revision: revision, attributes: nil)
        }
    }
}
