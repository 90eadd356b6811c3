import HermesWire

extension StoredEvent {
    /// The event as `GET /v1/events` shows it: the payload by its size only.
    var json: JSONValue {
        [
            "namespace": .string(namespace),
            "reportID": .string(reportID),
            "monitorType": .string(monitorType),
            "createTime": .int(createTime),
            "meta": meta,
            "payloadBytes": payload.map { .int(Int64($0.count)) } ?? .null,
            "deviceID": deviceID.map(JSONValue.string) ?? .null,
            "batchID": batchID.map(JSONValue.string) ?? .null,
            "receivedAt": .int(receivedAt),
            "appKeyID": appKeyID.map(JSONValue.string) ?? .null,
        ]
    }
}
