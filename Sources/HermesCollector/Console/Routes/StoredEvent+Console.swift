import HermesWire

extension StoredEvent {
    /// A row of the console's records table: the common fields, not the whole meta.
    var consoleSummary: JSONValue {
        [
            "id": .int(id),
            "key": .string("\(createTime)/\(id)"),
            "createTime": .int(createTime),
            "receivedAt": .int(receivedAt),
            "namespace": .string(namespace),
            "type": .string(monitorType),
            "user": meta["USER_ID"] ?? .null,
            "session": meta["SESSION_ID"] ?? .null,
            "appVersion": meta["APP_VERSION"] ?? .null,
            "device": deviceID.map(JSONValue.string) ?? meta["DEVICE_ID"] ?? .null,
            "payloadBytes": payload.map { .int(Int64($0.count)) } ?? .null,
        ]
    }

    /// The console's record page: the summary, the whole meta, the report id, and the payload
    /// as text when it is text (up to 64 KiB; the whole payload downloads on its own).
    var consoleDetail: JSONValue {
        guard case .object(var fields) = consoleSummary else { return consoleSummary }
        fields["reportID"] = .string(reportID)
        fields["batchID"] = batchID.map(JSONValue.string) ?? .null
        fields["appKeyID"] = appKeyID.map(JSONValue.string) ?? .null
        fields["meta"] = meta
        fields["payloadText"] = payload.flatMap(Self.text) ?? .null
        return .object(fields)
    }

    /// The bytes as text, when they are UTF-8 without control characters other than tab and
    /// line breaks; at most 64 KiB of them.
    private static func text(_ bytes: [UInt8]) -> JSONValue? {
        let shown = bytes.prefix(64 << 10)
        guard let text = String(validating: shown, as: UTF8.self) ?? String(validating: shown.dropLast(3), as: UTF8.self) else { return nil }
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        return printable ? .string(text) : nil
    }
}
