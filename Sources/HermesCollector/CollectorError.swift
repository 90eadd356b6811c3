public import HermesWire
public import Hummingbird

/// The error every HermesCollector operation throws: a code to match on, a message for people,
/// and the HTTP status a request that caused it is answered with.
///
/// A route that throws a `CollectorError` answers with ``status`` and the JSON body
/// `{"error":"<code>","reason":"<message>","scope":"packet"|"request"}` (`CollectorRefusal`).
/// Messages never contain keys, tokens, payload bytes or meta values, so an error can be logged
/// and returned as it is.
///
/// ```swift
/// do { _ = try await storage.store(batch) }
/// catch let error as CollectorError where error.code == .storageFailed { ... }
/// ```
public struct CollectorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can grow new cases without breaking callers.
    ///
    /// Codes from decoding a packet keep the `HermesWireError/Code` name
    /// (`truncatedPacket`, `authenticationFailed`, …): see ``packet(_:)``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case unauthorized
            case bodyTooLarge
            case missingHeader
            case invalidHeader
            case invalidQuery
            case namespaceNotFound
            case refusedByRule
            case storageFailed
            case serverStopped
            case busy
            case forbidden
            case notFound
            case editConflict
            case tooManyAttempts
            case rateLimited
            case namespaceNotAllowed
            case invalidAlertRule
            case alertRuleNotFound
            case invalidTLS
            case wire(HermesWireError.Code)
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        public var description: String {
            switch base {
            case .unauthorized: "unauthorized"
            case .bodyTooLarge: "bodyTooLarge"
            case .missingHeader: "missingHeader"
            case .invalidHeader: "invalidHeader"
            case .refusedByRule: "refusedByRule"
            case .invalidQuery: "invalidQuery"
            case .namespaceNotFound: "namespaceNotFound"
            case .storageFailed: "storageFailed"
            case .serverStopped: "serverStopped"
            case .busy: "busy"
            case .forbidden: "forbidden"
            case .notFound: "notFound"
            case .editConflict: "editConflict"
            case .tooManyAttempts: "tooManyAttempts"
            case .rateLimited: "rateLimited"
            case .namespaceNotAllowed: "namespaceNotAllowed"
            case .invalidAlertRule: "invalidAlertRule"
            case .alertRuleNotFound: "alertRuleNotFound"
            case .invalidTLS: "invalidTLS"
            case .wire(let code): code.description
            }
        }

        /// The HTTP status a request failing with this code gets.
        public var status: HTTPResponse.Status {
            switch base {
            case .unauthorized: .unauthorized
            case .bodyTooLarge: .contentTooLarge
            // Past the namespace's limits: 413, so that an SDK with an older configuration halves its batch.
            case .wire(let code) where [.packetTooLarge, .tooManyRecords, .outputTooLarge].contains(code): .contentTooLarge
            case .namespaceNotFound, .notFound, .alertRuleNotFound: .notFound
            case .forbidden: .forbidden
            case .editConflict: .preconditionFailed
            case .tooManyAttempts, .rateLimited: .tooManyRequests
            case .namespaceNotAllowed: .forbidden
            case .storageFailed, .serverStopped, .busy: .serviceUnavailable
            default: .badRequest
            }
        }

        /// The requests in flight hold the collector's whole memory budget for bodies; try again
        /// shortly (503 with `Retry-After`).
        public static let busy = Code(.busy)
        /// The TLS certificate chain or private key cannot be read, or do not go together: the
        /// collector does not start (``CollectorTLS``).
        public static let invalidTLS = Code(.invalidTLS)
        /// The app key or admin token is missing or wrong (401).
        public static let unauthorized = Code(.unauthorized)
        /// The request body is larger than the collector accepts (413).
        public static let bodyTooLarge = Code(.bodyTooLarge)
        /// A required request header is missing (400).
        public static let missingHeader = Code(.missingHeader)
        /// A request header has a value the collector does not accept (400).
        public static let invalidHeader = Code(.invalidHeader)
        /// A query parameter is not valid (400).
        public static let invalidQuery = Code(.invalidQuery)
        /// The namespace to change does not exist (404).
        public static let namespaceNotFound = Code(.namespaceNotFound)
        /// An alert rule's name, parameters or webhook URL are not valid (400).
        public static let invalidAlertRule = Code(.invalidAlertRule)
        /// No alert rule has the id given (404).
        public static let alertRuleNotFound = Code(.alertRuleNotFound)
        /// The deployment's ``CollectorConfiguration/recordRule`` refused a record. Never a
        /// request's error: the record is listed in the upload's 200 answer.
        public static let refusedByRule = Code(.refusedByRule)
        /// The store could not read or write (503); nothing was stored.
        public static let storageFailed = Code(.storageFailed)
        /// The server stopped before it could listen (503 if ever answered).
        public static let serverStopped = Code(.serverStopped)

        /// The console user's role does not allow this, or a state-changing console request came
        /// without its session's CSRF token (403).
        public static let forbidden = Code(.forbidden)
        /// The console asked for something that does not exist (404).
        public static let notFound = Code(.notFound)
        /// A console edit was based on an older version than the one saved now (412): another
        /// editor saved in between.
        public static let editConflict = Code(.editConflict)
        /// Too many failed console sign-ins from one address or for one name; try again in a
        /// minute (429 with `Retry-After`).
        public static let tooManyAttempts = Code(.tooManyAttempts)
        /// The app key made more requests than ``CollectorConfiguration/appKeyRequestsPerSecond``
        /// allows; try again after `Retry-After` seconds (429).
        public static let rateLimited = Code(.rateLimited)
        /// The app key is bound to other namespaces than the upload's
        /// (``CollectorConfiguration/appKeyNamespaces``) (403).
        public static let namespaceNotAllowed = Code(.namespaceNotAllowed)

        /// A body or document HermesWire refused, under HermesWire's own code name (400).
        /// - Parameter code: the HermesWire code.
        public static func packet(_ code: HermesWireError.Code) -> Code { Code(.wire(code)) }
    }

    /// What went wrong, to match on.
    public var code: Code
    /// What happened and what to do, without secrets or record contents.
    public var message: String
    /// Whether an upload was refused because its packet as a whole cannot be read, or for the
    /// request itself; sent as `scope` so that the SDK can tell a key rotation from its own bug.
    public var scope: CollectorRefusal.Scope
    /// The error that caused this one, if any.
    public var underlying: (any Error)?
    /// The seconds a refused client should wait, sent as `Retry-After`; `nil` leaves the code's
    /// own (1 for ``Code/busy``, 60 for ``Code/tooManyAttempts``, none otherwise).
    public var retryAfterSeconds: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - message: what happened and what to do.
    ///   - scope: what a refusal is about (default `CollectorRefusal/Scope/request`).
    ///   - underlying: the error that caused this one.
    public init(_ code: Code, _ message: String, scope: CollectorRefusal.Scope = .request, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.scope = scope
        self.underlying = underlying
    }

    /// Wraps an error HermesWire threw, keeping its code and message.
    /// - Parameters:
    ///   - error: the HermesWire error.
    ///   - scope: `CollectorRefusal/Scope/packet` when it is about an upload's packet.
    public init(_ error: HermesWireError, scope: CollectorRefusal.Scope = .request) {
        self.init(.packet(error.code), error.message, scope: scope, underlying: error)
    }

    public var description: String { "CollectorError.\(code): \(message)" }
}

extension CollectorError: HTTPResponseError {
    /// The HTTP status of ``code``.
    public var status: HTTPResponse.Status { code.status }

    /// The response: ``status`` and `{"error":"<code>","reason":"<message>","scope":"<scope>"}`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        let defaultRetryAfter = code == .busy ? 1 : code == .tooManyAttempts ? 60 : nil
        if let seconds = retryAfterSeconds ?? defaultRetryAfter { headers[.retryAfter] = String(seconds) }
        return try Response.json(CollectorRefusal(error: code.description, reason: message, scope: scope).json, status: status, headers: headers)
    }
}
