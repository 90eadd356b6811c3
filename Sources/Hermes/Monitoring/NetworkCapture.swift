import Foundation
import HermesWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` behind ``HermesClient/captureNetwork()``: registered once, it takes every
/// `http(s)` request a `URLSession` of the app makes through `URLProtocol`'s registered classes
/// (`URLSession.shared`, on Linux when it was registered before the shared session's first use),
/// and every request of a session whose configuration went through ``HermesClient/capturing(_:)``,
/// sends it through a session of
/// its own, hands the answer back unchanged, and records `net` or `netError` as
/// ``InstrumentedSession`` does. Never Hermes' own requests: those carry the app key header, and
/// its uploads over plain sockets never meet `URLSession`.
final class NetworkCapture: URLProtocol {
    /// The client samples go to, held weakly: the last that called
    /// ``HermesClient/captureNetwork()`` or ``HermesClient/capturing(_:)`` (an app has one).
    private static let recipient = Locked<WeakClient?>(nil)
    /// Whether the protocol is registered for `URLSession.shared`.
    private static let registered = Locked(false)
    /// Marks the requests the capture itself sends, so it does not take them again.
    private static let marker = "HermesNetworkCapture"
    /// Sends the captured requests: its own, so the app's session delegates are not involved.
    private static let session = URLSession(configuration: .ephemeral)

    private let sending = Locked<URLSessionDataTask?>(nil)

    private struct WeakClient {
        weak var client: HermesClient?
    }

    /// Sends samples to `client` from now on, registering the protocol the first time.
    static func start(for client: HermesClient) {
        recipient.withLock { $0 = WeakClient(client: client) }
        let first = registered.withLock { registered in
            defer { registered = true }
            return !registered
        }
        if first { URLProtocol.registerClass(NetworkCapture.self) }
    }

    /// `configuration` with the capture first among its protocol classes; samples go to `client`.
    static func configure(_ configuration: URLSessionConfiguration, for client: HermesClient) -> URLSessionConfiguration {
        recipient.withLock { $0 = WeakClient(client: client) }
        configuration.protocolClasses = [NetworkCapture.self] + (configuration.protocolClasses ?? []).filter { $0 != NetworkCapture.self }
        return configuration
    }

    override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https",
            URLProtocol.property(forKey: marker, in: request) == nil,
            request.value(forHTTPHeaderField: HermesHeader.appKey) == nil
        else { return false }
        return recipient.withLock { $0?.client != nil }
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let copy = (request as NSURLRequest).mutableCopy() as? NSMutableURLRequest else { return }
        URLProtocol.setProperty(true, forKey: Self.marker, in: copy)
        let original = request
        var prepared = copy as URLRequest
        prepared.timeoutInterval = original.timeoutInterval
        let inner = prepared
        let clock = ContinuousClock()
        let started = clock.now
        // The protocol object lives until its task ends; `URLProtocol` is not `Sendable`, and its
        // client is called from the session's queue, as Foundation expects.
        nonisolated(unsafe) let owner = self
        // Made and started off this queue: Foundation on Linux runs every session's work on one
        // shared queue, and a task made from a protocol running there waits for itself and traps.
        DispatchQueue.global().async {
            let sent = Self.session.dataTask(with: inner) { data, response, error in
                let measurement = NetworkSample.Measurement(
                    duration: started.duration(to: clock.now), requestBytes: Int64(original.httpBody?.count ?? 0),
                    responseBytes: Int64(data?.count ?? 0), source: "sdk")
                let client = Self.recipient.withLock { $0?.client }
                if let response, error == nil {
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    client?.recordNetworkSample(type: MonitorType.net, NetworkSample.response(request: original, status: status, measurement))
                    owner.client?.urlProtocol(owner, didReceive: response, cacheStoragePolicy: .notAllowed)
                    if let data { owner.client?.urlProtocol(owner, didLoad: data) }
                    owner.client?.urlProtocolDidFinishLoading(owner)
                } else {
                    let error = error ?? URLError(.badServerResponse)
                    client?.recordNetworkSample(type: MonitorType.netError, NetworkSample.failure(request: original, error: error, measurement))
                    owner.client?.urlProtocol(owner, didFailWithError: error)
                }
            }
            owner.sending.withLock { $0 = sent }
            sent.resume()
        }
    }

    override func stopLoading() {
        let sent = sending.withLock { $0 }
        DispatchQueue.global().async { sent?.cancel() }
    }
}
