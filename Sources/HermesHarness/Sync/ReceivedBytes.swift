import Atomics
package import HermesTransport
import HermesWire

/// A transport that passes requests to the platform's and counts the answer bytes it receives,
/// as they were on the wire (before the sync transport inflates them): `hermes sync bench`'s
/// `catch_up_bytes_per_record`.
package final class ReceivedBytes: Transport {
    private let base = PlatformTransport()
    private let received = ManagedAtomic<Int>(0)

    package init() {}

    /// The answer body bytes received so far.
    package var total: Int { received.load(ordering: .relaxed) }

    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(request)
        received.wrappingIncrement(by: response.body.count, ordering: .relaxed)
        return response
    }
}
