import Foundation
import Hermes
import HermesCollector
import HermesWire

/// What `hermes demo` reads back from the collector to check every accepted record arrived.
struct CollectedRecord {
    var reportID: String
    var monitorType: String
    /// Meta JSON bytes plus payload bytes: what the records weigh before compression.
    var rawBytes: Int
    /// The record's `SESSION_ID` and `USER_ID`.
    var sessionID: String?
    var userID: String?
}

protocol DemoCollectorView {
    func records(in namespace: String) async throws -> [CollectedRecord]
}

/// Reads the embedded collector's storage directly.
struct EmbeddedCollectorView: DemoCollectorView {
    var storage: SQLiteCollectorStorage

    func records(in namespace: String) async throws -> [CollectedRecord] {
        try await storage.events(EventQuery(namespace: namespace, limit: EventQuery.maximumLimit)).map { event in
            CollectedRecord(
                reportID: event.reportID, monitorType: event.monitorType,
                rawBytes: ((try? event.meta.jsonBytes().count) ?? 0) + (event.payload?.count ?? 0),
                sessionID: event.meta[RecordField.sessionID]?.stringValue, userID: event.meta[RecordField.userID]?.stringValue
            )
        }
    }
}

/// Reads a running collector's `GET /v1/events` with the admin token.
struct RemoteCollectorView: DemoCollectorView {
    var baseURL: URL
    var adminToken: String

    func records(in namespace: String) async throws -> [CollectedRecord] {
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/events"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "namespace", value: namespace), URLQueryItem(name: "limit", value: String(EventQuery.maximumLimit)),
        ]
        let response = try await URLSessionTransport().send(
            TransportRequest(
                method: "GET", url: components.url!, headers: ["Authorization": "Bearer \(adminToken)"]
            ))
        guard response.status == 200 else {
            throw HermesError(
                .invalidConfiguration,
                "the collector answered \(response.status) to GET /v1/events: \(String(decoding: response.body, as: UTF8.self))")
        }
        let events = try JSONValue(parsing: response.body)["events"]
        guard case .array(let list)? = events else { return [] }
        return list.map { event in
            CollectedRecord(
                reportID: event["reportID"]?.stringValue ?? "",
                monitorType: event["monitorType"]?.stringValue ?? "",
                rawBytes: ((try? event["meta"]?.jsonBytes().count) ?? 0) + Int(event["payloadBytes"]?.intValue ?? 0),
                sessionID: event["meta"]?[RecordField.sessionID]?.stringValue, userID: event["meta"]?[RecordField.userID]?.stringValue
            )
        }
    }
}
