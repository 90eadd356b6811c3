public import Foundation

/// Sends one HTTP request: how Hermes reaches the collector. Injected so tests control the network.
///
/// Contract for implementers: return the server's answer for any HTTP status (4xx and 5xx are
/// answers, not errors); throw only when no answer arrived (connection refused, reset, timeout).
/// Honour ``TransportRequest/timeout``. Never retry on your own: Hermes decides.
public protocol Transport: Sendable {
    /// Sends `request` and returns the server's answer.
    /// - Throws: when no HTTP answer arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// An HTTP request Hermes makes.
public struct TransportRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// The full URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, empty for `GET`.
    public var body: [UInt8]
    /// How long to wait for the answer.
    public var timeout: Duration

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8] = [], timeout: Duration = .seconds(30)) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A server's answer.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
