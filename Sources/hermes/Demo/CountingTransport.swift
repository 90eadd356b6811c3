import Hermes
import HermesWire
import Synchronization

/// Wraps a transport and counts the upload bytes each namespace put on the wire.
final class CountingTransport: Transport {
    private let base: any Transport
    private let bytes = Mutex<[String: Int]>([:])

    init(_ base: any Transport) {
        self.base = base
    }

    /// Request body bytes per namespace.
    var bytesByNamespace: [String: Int] { bytes.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if let namespace = request.headers[HermesHeader.namespace] {
            bytes.withLock { $0[namespace, default: 0] += request.body.count }
        }
        return try await base.send(request)
    }
}
