/// Why ``SocketHTTPTransport`` got no answer.
///
/// Hermes treats every one of these as "no answer arrived": the records stay and the round backs
/// off. Match on ``code``; the ``message`` says what happened and never holds a request's body.
///
/// ```swift
/// do { _ = try await transport.send(request) }
/// catch let error as SocketTransportError where error.code == .timedOut { ... }
/// ```
public struct SocketTransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can grow new cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unsupportedURL, invalidRequest, cannotResolve, connectionRefused, connectionFailed
            case connectionClosed, timedOut, invalidResponse, responseTooLarge
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        public var description: String { base.rawValue }

        /// The URL is not `http://` with a host (use ``URLSessionTransport`` for `https://`).
        public static let unsupportedURL = Code(.unsupportedURL)
        /// A header name or value cannot be sent (a line break in it, or a name HTTP forbids).
        public static let invalidRequest = Code(.invalidRequest)
        /// The host name did not resolve.
        public static let cannotResolve = Code(.cannotResolve)
        /// Nothing listens on the host and port.
        public static let connectionRefused = Code(.connectionRefused)
        /// The connection could not be made or broke while sending (other than a refusal).
        public static let connectionFailed = Code(.connectionFailed)
        /// The server closed the connection before its whole answer arrived.
        public static let connectionClosed = Code(.connectionClosed)
        /// No whole answer within the request's timeout.
        public static let timedOut = Code(.timedOut)
        /// The answer is not HTTP/1.x as the transport reads it.
        public static let invalidResponse = Code(.invalidResponse)
        /// The answer's header or body is larger than the transport's bound.
        public static let responseTooLarge = Code(.responseTooLarge)
    }

    /// What went wrong, to match on.
    public var code: Code
    /// What happened and what to do.
    public var message: String
    /// The `errno` of the failing system call, when one failed.
    public var systemError: Int32?

    /// Creates an error.
    public init(_ code: Code, _ message: String, systemError: Int32? = nil) {
        self.code = code
        self.message = message
        self.systemError = systemError
    }

    public var description: String { "SocketTransportError(\(code)): \(message)" }
}
