import HermesWire

extension IngestRecord {
    /// Reads and checks one meta line of an upload.
    ///
    /// The line must be a JSON object with a non-empty string `REPORT_ID`, a string
    /// `MONITOR_TYPE`, a string `NAMESPACE` equal to `namespace`, and an integer `CREATE_TIME`.
    /// - Parameters:
    ///   - metaLine: the compact JSON object.
    ///   - payload: the record's payload slot; empty or `nil` means none.
    ///   - namespace: the request's namespace.
    ///   - index: the line's position in the batch, for messages.
    /// - Throws: ``CollectorError`` with code `invalidJSON`, ``CollectorError/Code/invalidRecord``,
    ///   ``CollectorError/Code/missingField``, ``CollectorError/Code/invalidField`` or
    ///   ``CollectorError/Code/namespaceMismatch``. Messages name fields, never their values.
    public init(metaLine: [UInt8], payload: [UInt8]?, namespace: String, index: Int) throws(CollectorError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: metaLine)
        } catch {
            throw CollectorError(.packet(error.code), "record \(index): the meta line is not valid JSON: \(error.message)")
        }
        guard let object = value.objectValue else {
            throw CollectorError(.invalidRecord, "record \(index): the meta line is not a JSON object")
        }
        let fields = MetaFields(object: object, index: index)
        let reportID = try fields.string(RecordField.reportID)
        guard !reportID.isEmpty else {
            throw CollectorError(.invalidField, "record \(index): \(RecordField.reportID) is empty")
        }
        guard try fields.string(RecordField.namespace) == namespace else {
            throw CollectorError(.namespaceMismatch, "record \(index): \(RecordField.namespace) differs from the \(HermesHeader.namespace) header")
        }
        self.init(
            namespace: namespace,
            reportID: reportID,
            monitorType: try fields.string(RecordField.monitorType),
            createTime: try fields.integer(RecordField.createTime),
            meta: metaLine,
            payload: payload?.isEmpty == false ? payload : nil
        )
    }
}

/// Typed reads of required meta fields, naming the field and record in every error.
private struct MetaFields {
    let object: [String: JSONValue]
    let index: Int

    func value(_ field: String) throws(CollectorError) -> JSONValue {
        guard let value = object[field] else {
            throw CollectorError(.missingField, "record \(index): \(field) is missing")
        }
        return value
    }

    func string(_ field: String) throws(CollectorError) -> String {
        guard let string = try value(field).stringValue else {
            throw CollectorError(.invalidField, "record \(index): \(field) must be a string")
        }
        return string
    }

    func integer(_ field: String) throws(CollectorError) -> Int64 {
        guard let integer = try value(field).intValue else {
            throw CollectorError(.invalidField, "record \(index): \(field) must be an integer")
        }
        return integer
    }
}
