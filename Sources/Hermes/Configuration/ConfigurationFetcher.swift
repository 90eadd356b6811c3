import Foundation
import HermesWire

/// One `GET` of the configuration document with `If-None-Match` (specification §3), saying
/// which device and app version asks, so that the collector can apply its overrides.
struct ConfigurationFetcher: Sendable {
    let url: URL
    let appKey: String
    let deviceID: String
    let appVersion: String
    let transport: any Transport
    let timeout: Duration = .seconds(15)

    /// What a fetch brought.
    enum Outcome: Sendable {
        /// A new document (clamped), its ETag, and the values clamping changed.
        case updated(ConfigurationDocument, etag: String?, adjustments: [ConfigurationAdjustment])
        /// 304: the document in force is current.
        case notModified
        /// No usable answer; the document in force stays.
        case failed(String)
    }

    func fetch(etag: String?) async -> Outcome {
        var headers = [
            HermesHeader.appKey: appKey, HermesHeader.deviceID: deviceID, HermesHeader.appVersion: appVersion, "Accept": "application/json",
        ]
        if let etag { headers["If-None-Match"] = etag }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(method: "GET", url: url, headers: headers, timeout: timeout))
        } catch {
            return .failed("the configuration server did not answer: \(error)")
        }
        switch response.status {
        case 304:
            return .notModified
        case 200..<300:
            do {
                let (document, adjustments) = try ConfigurationDocument(jsonBytes: response.body).clamped()
                return .updated(document, etag: response.header("ETag"), adjustments: adjustments)
            } catch {
                return .failed("the configuration server sent a malformed document: \(error.message)")
            }
        default:
            return .failed("the configuration server answered \(response.status)")
        }
    }
}
