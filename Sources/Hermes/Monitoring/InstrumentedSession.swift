public import Foundation
import HermesWire
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `URLSession` whose requests are sampled into the `hermes` namespace: each
/// ``data(for:)`` records a `net` record (method, host, path with ids templated out, status,
/// duration, request and response bytes) when a response arrives, or a `netError` record
/// (the same, with the error's domain and code) when none does. Gated by
/// ``MonitoringOptions/network`` and the namespace's `monitorList`.
///
/// The duration and byte counts come from the task's `URLSessionTaskMetrics` where the platform
/// fills them (Apple platforms: the task interval, body bytes on the wire); elsewhere (Foundation
/// on Linux) Hermes times the call itself and counts the bodies. The `timing` field says which.
///
/// ```swift
/// let session = client.instrumented(URLSession.shared)
/// let (data, response) = try await session.data(for: URLRequest(url: url))
/// ```
public struct InstrumentedSession: Sendable {
    /// The session that carries the requests.
    public let session: URLSession
    private let client: HermesClient

    init(session: URLSession, client: HermesClient) {
        self.session = session
        self.client = client
    }

    /// Sends `request` like `URLSession.data(for:)` and records a sample of it.
    /// - Parameter request: the request.
    /// - Returns: the response body and the response.
    /// - Throws: the session's error, unchanged (after recording `netError`).
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let clock = ContinuousClock()
        let started = clock.now
        let recorder = TaskMetricsRecorder()
        let requestBytes = Int64(request.httpBody?.count ?? 0)
        func measurement(responseBytes: Int64) -> NetworkSample.Measurement {
            let own = NetworkSample.Measurement(
                duration: started.duration(to: clock.now), requestBytes: requestBytes, responseBytes: responseBytes, source: "sdk"
            )
            return .choose(metrics: recorder.measurement, own: own)
        }
        do {
            let (data, response) = try await session.data(for: request, delegate: recorder)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            client.recordNetworkSample(
                type: MonitorType.net,
                NetworkSample.response(
                    request: request, status: status, measurement(responseBytes: Int64(data.count))
                ))
            return (data, response)
        } catch {
            client.recordNetworkSample(
                type: MonitorType.netError,
                NetworkSample.failure(
                    request: request, error: error, measurement(responseBytes: 0)
                ))
            throw error
        }
    }
}
