public import Hermes

/// A ``Transport`` whose requests never get an answer: they wait until their task is
/// cancelled, as against a server that accepted the connection and went silent.
public struct HangingTransport: Transport {
    /// Creates the transport.
    public init() {}

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        try await withTaskCancellationHandler {
            for await _ in stream {}
            try Task.checkCancellation()
        } onCancel: {
            continuation.finish()
        }
        throw CancellationError()
    }
}
