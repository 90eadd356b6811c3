import Foundation
import HermesWire

/// The default ``Transport``: the lightest that fits the platform and the URL.
///
/// - On Linux, `http://` URLs go over ``SocketHTTPTransport`` (no FoundationNetworking, libcurl
///   or OpenSSL loaded into memory, no libcurl work per request): what a server app sending to a
///   collector in its own cluster wants.
/// - Everything else (`https://`, and every URL on Apple platforms) goes over
///   ``URLSessionTransport``, made on the first such request: on iOS and macOS the system's
///   stack brings App Transport Security, proxies, VPN and the radio's power management.
///
/// ```swift
/// let configuration = HermesClient.Configuration(..., transport: PlatformTransport())
/// ```
public final class PlatformTransport: Transport {
    #if os(Linux)
    private let socket = SocketHTTPTransport()
    #endif
    private let session = Locked<URLSessionTransport?>(nil)

    /// Creates the transport; nothing is opened or loaded until the first request.
    public init() {}

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        #if os(Linux)
        if request.url.scheme?.lowercased() == "http" { return try await socket.send(request) }
        #endif
        let transport = session.withLock { session in
            if let session { return session }
            let made = URLSessionTransport()
            session = made
            return made
        }
        return try await transport.send(request)
    }
}
