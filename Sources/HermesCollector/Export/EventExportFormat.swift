package import HermesWire

/// How `GET /v1/events/export` and `hermes events` write records: one line per record, from
/// the record as `GET /v1/events` shows it (``StoredEvent/json``), so that both give the same
/// bytes for the same records.
///
/// - ``ndjson``: the record's JSON object on one line (keys sorted, no whitespace): `namespace`,
///   `reportID`, `monitorType`, `createTime`, `receivedAt`, `deviceID`, `batchID`, `appKeyID`, `meta`
///   (the stored meta object) and `payloadBytes` (the payload's size, not its bytes, or `null`).
/// - ``csv``: RFC 4180 (CRLF line ends; a cell holding a comma, a quote, CR or LF is quoted,
///   its quotes doubled) under a header row of fixed columns; a text cell that starts with
///   `=`, `+`, `-`, `@`, a tab or CR gets a leading `'`, so that a spreadsheet does not run it
///   as a formula (OWASP's advice on CSV injection).
///
/// ```swift
/// let line = try EventExportFormat.csv.line(event.json)
/// ```
package enum EventExportFormat: String, Sendable, CaseIterable {
    case ndjson
    case csv

    /// The CSV columns, in order: the meta's `USER_ID`, `SESSION_ID` and `APP_VERSION` as the
    /// store's facet columns hold them, and the whole meta as JSON text.
    package static let csvColumns = [
        "namespace", "report_id", "monitor_type", "create_time", "received_at", "device_id", "user_id", "session_id", "app_version", "meta",
    ]

    /// The `Content-Type` of an export.
    package var contentType: String {
        switch self {
        case .ndjson: "application/x-ndjson"
        case .csv: "text/csv; charset=utf-8"
        }
    }

    /// The file name an export suggests (`Content-Disposition`).
    package var fileName: String { "hermes-events.\(rawValue)" }

    /// What comes before the first record: the CSV header row, nothing for NDJSON.
    package var header: String {
        switch self {
        case .ndjson: ""
        case .csv: Self.csvColumns.joined(separator: ",") + "\r\n"
        }
    }

    /// One record's line, with its line end.
    /// - Parameter event: the record as `GET /v1/events` shows it.
    /// - Throws: `HermesWireError` if the record holds a number JSON cannot write.
    package func line(_ event: JSONValue) throws(HermesWireError) -> String {
        switch self {
        case .ndjson:
            return try event.jsonString() + "\n"
        case .csv:
            let meta = event["meta"] ?? .object([:])
            let texts: [String?] = [
                event["namespace"]?.stringValue, event["reportID"]?.stringValue, event["monitorType"]?.stringValue,
            ]
            let numbers = [event["createTime"]?.intValue, event["receivedAt"]?.intValue].map { $0.map(String.init) ?? "" }
            let more: [String?] = [
                event["deviceID"]?.stringValue, RecordFacets.text(meta[RecordField.userID]), RecordFacets.text(meta[RecordField.sessionID]),
                RecordFacets.text(meta[RecordField.appVersion]), try meta.jsonString(),
            ]
            let cells = texts.map(Self.csvText) + numbers + more.map(Self.csvText)
            return cells.joined(separator: ",") + "\r\n"
        }
    }

    /// A text cell: defused when a spreadsheet would read it as a formula, then quoted when
    /// RFC 4180 asks for it. An absent value is an empty cell.
    package static func csvText(_ text: String?) -> String {
        guard var text, let first = text.unicodeScalars.first else { return "" }
        if ["=", "+", "-", "@", "\t", "\r"].contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + String(text.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }
}
