package import Foundation
package import Hermes
package import HermesCollector
package import HermesWire

/// What `hermes demo` reads back from the collector to check every accepted record arrived.
package struct CollectedRecord {
    package var reportID: String
    package var monitorType: String
    /// Meta JSON bytes plus payload bytes: what the records weigh before compression.
    package var rawBytes: Int
    /// The record's `SESSION_ID` and `USER_ID`.
    package var sessionID: String?
    package var userID: String?
}

package protocol DemoCollectorView {
    func records(in namespace: String) async throws -> [CollectedRecord]
}

/// Reads the embedded collector's storage directly.
package struct EmbeddedCollectorView: DemoCollectorView {
    package var storage: SQLiteCollectorStorage

    package init(storage: SQLiteCollectorStorage) {
        self.storage = storage
    }

    package func records(in namespace: String) async throws -> [CollectedRecord] {
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
package struct RemoteCollectorView: DemoCollectorView {
    package var baseURL: URL
    package var adminToken: String

    package init(baseURL: URL, adminToken: String) {
        self.baseURL = baseURL
        self.adminToken = adminToken
    }

    package func records(in namespace: String) async throws -> [CollectedRecord] {
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
