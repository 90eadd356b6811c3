import Dispatch
import Foundation
import HermesWire

/// A ``Transport`` for plain `http://` collectors that speaks HTTP/1.1 over POSIX sockets,
/// without FoundationNetworking: no libcurl, no OpenSSL, no ICU data touched on the first
/// request, so a Linux process stays a few megabytes lighter and each request skips libcurl's
/// per-request work.
///
/// Use it for a collector reached without TLS, such as one in the same cluster or on loopback;
/// ``PlatformTransport`` (the default) picks it for `http://` URLs on Linux. `https://` needs
/// ``URLSessionTransport``: this transport refuses it with ``SocketTransportError/Code/unsupportedURL``.
///
/// Each host and port keeps up to ``Configuration-swift.struct/maxIdleConnections`` kept-alive
/// connections for the next requests. Bodies go with `Content-Length`; answers are read with
/// `Content-Length`, chunked, or until the connection ends, within the configured bounds. The
/// request's ``TransportRequest/timeout`` bounds connecting, sending and reading together. A
/// kept-alive connection the server closed before any byte of its answer arrived is replaced by
/// a new one once (Hermes' requests are safe to repeat: the collector keeps each `REPORT_ID`
/// once). The blocking I/O runs on a dispatch queue of its own per exchange, never on the caller's
/// thread or Swift concurrency's threads; cancelling the calling task ends the exchange at once.
///
/// ```swift
/// var configuration = HermesClient.Configuration(..., transport: SocketHTTPTransport())
/// ```
public final class SocketHTTPTransport: Transport {
    /// The transport's bounds.
    public struct Configuration: Sendable {
        /// The largest answer header read, in bytes.
        public var maxHeaderBytes = 64 * 1024
        /// The largest answer body read, in bytes.
        public var maxBodyBytes = 16 * 1024 * 1024
        /// Kept-alive connections kept per host and port between requests.
        public var maxIdleConnections = 4

        /// Creates the default bounds.
        public init() {}
    }

    private struct Endpoint: Hashable {
        var host: String
        var port: Int
    }

    private let configuration: Configuration
    private let idle = Locked<[Endpoint: [SocketConnection]]>([:])

    /// Creates a transport with `configuration`'s bounds.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Sends `request` and returns the server's answer, whatever its status.
    /// - Throws: ``SocketTransportError`` when no whole answer arrived; `CancellationError`
    ///   when the calling task was cancelled.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let endpoint = try Self.endpoint(request.url)
        let message = try HTTPRequestEncoder.encode(request, host: endpoint.host, port: endpoint.port)
        let deadline = ContinuousClock.now.advanced(by: request.timeout)
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, any Error>) in
                // A serial queue of its own: GCD gives it a thread even when every worker of the
                // shared pool is busy, so a hanging collector cannot hold up other exchanges.
                DispatchQueue(label: "hermes.transport.socket").async {
                    continuation.resume(
                        with: Result {
                            do {
                                return try self.exchange(
                                    message, method: request.method, endpoint: endpoint, deadline: deadline, cancellation: cancellation)
                            } catch  where cancellation.isCancelled {
                                throw CancellationError()
                            }
                        })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// On the queue: the request on a kept-alive connection if one is idle (again on a new one
    /// if the server had closed it before answering), else on a new one.
    private func exchange(
        _ message: [UInt8], method: String, endpoint: Endpoint, deadline: ContinuousClock.Instant,
        cancellation: Cancellation
    ) throws(SocketTransportError) -> TransportResponse {
        if let kept = takeIdle(endpoint) {
            do throws(Failure) {
                return try exchange(message, method: method, on: kept, endpoint: endpoint, deadline: deadline, cancellation: cancellation)
            } catch {
                guard error.beforeAnswer else { throw error.error }
            }
        }
        let connection = try SocketConnection.open(host: endpoint.host, port: endpoint.port, deadline: deadline) { cancellation.watch($0) }
        do throws(Failure) {
            return try exchange(message, method: method, on: connection, endpoint: endpoint, deadline: deadline, cancellation: cancellation)
        } catch {
            throw error.error
        }
    }

    /// Why one exchange on one connection failed, and whether any byte of the answer had arrived.
    private struct Failure: Error {
        var error: SocketTransportError
        /// The server closed the connection before any byte of its answer.
        var beforeAnswer: Bool
    }

    private func exchange(
        _ message: [UInt8], method: String, on connection: SocketConnection, endpoint: Endpoint,
        deadline: ContinuousClock.Instant, cancellation: Cancellation
    ) throws(Failure) -> TransportResponse {
        cancellation.watch(connection)
        defer { cancellation.watch(nil) }
        var parser = HTTPResponseParser(
            maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes,
            expectsBody: method != "HEAD")
        var buffer: [UInt8] = []
        var received = 0
        do throws(SocketTransportError) {
            try connection.write(message, deadline: deadline)
            while true {
                let count = try connection.read(into: &buffer, deadline: deadline)
                received += count
                if let parsed = try parser.parse(&buffer, atEnd: count == 0) {
                    if parsed.reusable { putIdle(connection, endpoint) }
                    return parsed.response
                }
            }
        } catch {
            throw Failure(error: error, beforeAnswer: received == 0 && error.code == .connectionClosed)
        }
    }

    private func takeIdle(_ endpoint: Endpoint) -> SocketConnection? {
        while let connection = idle.withLock({ $0[endpoint]?.popLast() }) {
            if connection.isIdle { return connection }
        }
        return nil
    }

    private func putIdle(_ connection: SocketConnection, _ endpoint: Endpoint) {
        idle.withLock { idle in
            if idle[endpoint, default: []].count < configuration.maxIdleConnections { idle[endpoint, default: []].append(connection) }
        }
    }

    private static func endpoint(_ url: URL) throws(SocketTransportError) -> Endpoint {
        guard url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw SocketTransportError(
                .unsupportedURL, "SocketHTTPTransport sends to http:// URLs only, not \(url.scheme ?? "a URL without scheme")://")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return Endpoint(host: bare, port: url.port ?? 80)
    }

    /// The connection an exchange is blocked on, so that a cancellation from another thread can
    /// shut it.
    private final class Cancellation: Sendable {
        private let state = Locked<(cancelled: Bool, connection: SocketConnection?)>((false, nil))

        var isCancelled: Bool { state.withLock { $0.cancelled } }

        func watch(_ connection: SocketConnection?) {
            let cancelled = state.withLock { state in
                state.connection = connection
                return state.cancelled
            }
            if cancelled { connection?.shutDown() }
        }

        func cancel() {
            state.withLock { state in
                state.cancelled = true
                state.connection?.shutDown()
            }
        }
    }
}
