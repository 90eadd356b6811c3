import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire
import Synchronization

/// A collector inside the transport: decodes every packet with the real decoder, stores each
/// record once per (namespace, REPORT_ID), and answers what the test scripts.
final class FakeCollector: Sendable {
    struct Received: Sendable {
        var namespace: String
        var kind: PacketKind
        var reportIDs: [String]
        var monitorTypes: [String]
        var payloadSizes: [Int]
        var headers: [String: String]
    }

    static let key: [UInt8] = Array(repeating: 1, count: 16)
    private let decoder = PacketDecoder(keyring: Keyring([try! AESGCMCipher(key: FakeCollector.key, keyID: 1)]))
    private let log = Mutex<[Received]>([])
    private let stored = Mutex<[String: Int]>([:])
    /// Decides the answer to each request from the received batch (default 200).
    let answer = Mutex<@Sendable (Received, Int) -> TransportResponse>({ _, _ in TransportResponse(status: 200) })

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
            payloadSizes: decoded.packet.payloads.map(\.count),
            headers: request.headers
        )
        let index = log.withLock { log in
            log.append(received)
            return log.count - 1
        }
        let response = answer.withLock { $0 }(received, index)
        if (200..<300).contains(response.status) {
            stored.withLock { stored in
                for id in received.reportIDs { stored["\(received.namespace)/\(id)", default: 0] += 1 }
            }
        }
        return response
    }

    /// Every request received, in order.
    var requests: [Received] { log.withLock { $0 } }
    /// How many times each record was stored (2xx answers).
    var storedCounts: [String: Int] { stored.withLock { $0 } }
    /// The REPORT_IDs stored, per namespace.
    func storedIDs(_ namespace: String) -> Set<String> {
        Set(storedCounts.keys.filter { $0.hasPrefix(namespace + "/") }.map { String($0.dropFirst(namespace.count + 1)) })
    }
}
