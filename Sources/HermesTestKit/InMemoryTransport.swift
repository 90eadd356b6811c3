public import Hermes
import HermesWire

/// A ``Transport`` that answers from a closure and remembers every request: for tests that
/// need exact control of what the "server" says, without sockets.
///
/// ```swift
/// let transport = InMemoryTransport { request in TransportResponse(status: 304) }
/// ... // run the client
/// #expect(transport.requests.count == 1)
/// ```
public final class InMemoryTransport: Transport {
    /// Answers a request, or throws to simulate a network failure.
    public typealias Responder = @Sendable (TransportRequest) async throws -> TransportResponse

    private let responder: Locked<Responder>
    private let log = Locked<[TransportRequest]>([])
    private let continuation: AsyncStream<TransportRequest>.Continuation

    /// Every request as it is sent, for a test to await instead of polling (one consumer).
    public let sent: AsyncStream<TransportRequest>

    /// Creates a transport answering with `responder`.
    public init(_ responder: @escaping Responder) {
        self.responder = Locked(responder)
        (sent, continuation) = AsyncStream.makeStream()
    }

    /// Replaces the answer for later requests.
    public func respond(with responder: @escaping Responder) {
        self.responder.withLock { $0 = responder }
    }

    /// Every request sent so far, oldest first.
    public var requests: [TransportRequest] {
        log.withLock { $0 }
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        log.withLock { $0.append(request) }
        continuation.yield(request)
        let responder = self.responder.withLock { $0 }
        return try await responder(request)
    }
}
