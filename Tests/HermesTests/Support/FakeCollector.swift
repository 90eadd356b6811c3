import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire

/// A collector inside the transport: decodes every packet with the real decoder, answers what
/// the test scripts (by default what the real collector answers, ``TransportResponse/stored(_:rejecting:)``),
/// and counts each record as stored when its answer acknowledged the batch.
final class FakeCollector: Sendable {
    struct Received: Sendable {
        var namespace: String
        var kind: PacketKind
        var reportIDs: [String]
        var monitorTypes: [String]
        /// Each record's meta line, parsed.
        var metas: [JSONValue]
        var payloadSizes: [Int]
        var headers: [String: String]
    }

    static let key: [UInt8] = Array(repeating: 1, count: 16)
    /// The v1 cipher it also opens (a design-compatible server's).
    static let v1Cipher = try! AESCBCCipher(key: Array(repeating: 2, count: 16), iv: Array(repeating: 3, count: 16))
    private let decoder = PacketDecoder(keyring: Keyring([try! AESGCMCipher(key: FakeCollector.key, keyID: 1), FakeCollector.v1Cipher]))
    private let log = Locked<[Received]>([])
    private let stored = Locked<[String: Int]>([:])
    /// Decides the answer to each request from the received batch (default: stored, acknowledged).
    let answer = Locked<@Sendable (Received, Int) -> TransportResponse>({ received, _ in .stored(received) })

    let transport = InMemoryTransport { _ in TransportResponse(status: 503) }

    init() {
        transport.respond { [unowned self] request in try self.receive(request) }
    }

    private func receive(_ request: TransportRequest) throws -> TransportResponse {
        let kind: PacketKind = request.url.path.hasSuffix("payload") ? .payload : .meta
        let decoded = try decoder.decode(request.body, kind: kind)
        let metas = try decoded.packet.metaLines.map { try JSONValue(parsing: $0) }
        let received = Received(
            namespace: request.headers[HermesHeader.namespace] ?? "",
            kind: kind,
            reportIDs: metas.compactMap { $0["REPORT_ID"]?.stringValue },
            monitorTypes: metas.compactMap { $0["MONITOR_TYPE"]?.stringValue },
            metas: metas,
            payloadSizes: decoded.packet.payloads.map(\.count),
            headers: request.headers
        )
        let index = log.withLock { log in
            log.append(received)
            return log.count - 1
        }
        let response = answer.withLock { $0 }(received, index)
        if Self.acknowledges(response, received) {
            stored.withLock { stored in
                for id in received.reportIDs { stored["\(received.namespace)/\(id)", default: 0] += 1 }
            }
        }
        return response
    }

    /// Whether `response` proves to a client that `received` was stored (specification §6.4),
    /// checked here without the SDK's code: a 2xx with the batch id in `X-Hermes-Batch-Ack`,
    /// or with a collector's answer counting every record.
    private static func acknowledges(_ response: TransportResponse, _ received: Received) -> Bool {
        guard (200..<300).contains(response.status) else { return false }
        if let batchID = received.headers[HermesHeader.batchID], response.header(HermesHeader.batchAcknowledged) == batchID { return true }
        guard let answer = UploadAnswer(strictBody: response.body) else { return false }
        return answer.stored + answer.duplicates + answer.rejected.count == received.reportIDs.count
    }

    /// Every request received, in order.
    var requests: [Received] { log.withLock { $0 } }
    /// How many times each record was stored (answers that acknowledged its batch).
    var storedCounts: [String: Int] { stored.withLock { $0 } }
    /// The REPORT_IDs stored, per namespace.
    func storedIDs(_ namespace: String) -> Set<String> {
        Set(storedCounts.keys.filter { $0.hasPrefix(namespace + "/") }.map { String($0.dropFirst(namespace.count + 1)) })
    }
}

extension TransportResponse {
    /// The real collector's answer to `received`: 200 with the batch id in `X-Hermes-Batch-Ack`
    /// and a body that lists `rejected` and counts the other records as stored.
    static func stored(_ received: FakeCollector.Received, rejecting rejected: [UploadAnswer.Rejection] = []) -> TransportResponse {
        let answer = UploadAnswer(stored: max(0, received.reportIDs.count - rejected.count), duplicates: 0, rejected: rejected)
        return TransportResponse(
            status: 200,
            headers: [HermesHeader.batchAcknowledged: received.headers[HermesHeader.batchID] ?? "", "Content-Type": "application/json"],
            body: (try? answer.json.jsonBytes()) ?? []
        )
    }
}
