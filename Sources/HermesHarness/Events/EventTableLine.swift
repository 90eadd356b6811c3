import Foundation
package import HermesWire

/// `hermes events --format table`: one fixed-width line per record, for a terminal: when it was
/// made (UTC, ms), its namespace, type, user and device, and its report id. A value too wide
/// for its column is cut, ending in `…`.
package enum EventTableLine {
    /// The columns: title, width (the last one is not padded).
    private static let columns: [(title: String, width: Int)] = [
        ("CREATED (UTC)", 24), ("NAMESPACE", 12), ("TYPE", 22), ("USER", 16), ("DEVICE", 16), ("REPORT ID", 0),
    ]

    /// The header line.
    package static var header: String { row(columns.map(\.title)) }

    /// A record's line.
    /// - Parameter event: the record as `GET /v1/events` shows it.
    package static func line(_ event: JSONValue) -> String {
        row([
            event["createTime"]?.intValue.map(utc) ?? "", event["namespace"]?.stringValue ?? "", event["monitorType"]?.stringValue ?? "",
            event["meta"]?[RecordField.userID]?.stringValue ?? "", event["deviceID"]?.stringValue ?? "", event["reportID"]?.stringValue ?? "",
        ])
    }

    /// `2026-11-26T08:00:00.123Z` for ms since 1970.
    package static func utc(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    private static func row(_ values: [String]) -> String {
        zip(columns, values).map { column, value in
            guard column.width > 0 else { return value }
            let cut = value.count > column.width ? value.prefix(column.width - 1) + "…" : Substring(value)
            return cut + String(repeating: " ", count: column.width - cut.count)
        }.joined(separator: "  ") + "\n"
    }
}
