package import Hermes
package import HermesWire

/// Wraps a transport and counts, per namespace, the upload bytes put on the wire and the most
/// requests that were ever in flight at once (one round at a time sends one at a time).
package final class CountingTransport: Transport {
    private struct Counts {
        var bytes: [String: Int] = [:]
        var inFlight: [String: Int] = [:]
        var maxInFlight: [String: Int] = [:]
    }

    private let base: any Transport
    private let counts = Locked(Counts())

    package init(_ base: any Transport) {
        self.base = base
    }

    /// Request body bytes per namespace.
    package var bytesByNamespace: [String: Int] { counts.withLock { $0.bytes } }

    /// The most requests in flight at once, per namespace.
    package var maxInFlightByNamespace: [String: Int] { counts.withLock { $0.maxInFlight } }

    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let namespace = request.headers[HermesHeader.namespace] else { return try await base.send(request) }
        counts.withLock { counts in
            counts.bytes[namespace, default: 0] += request.body.count
            counts.inFlight[namespace, default: 0] += 1
            counts.maxInFlight[namespace] = max(counts.maxInFlight[namespace] ?? 0, counts.inFlight[namespace]!)
        }
        defer { counts.withLock { $0.inFlight[namespace, default: 0] -= 1 } }
        return try await base.send(request)
    }
}
