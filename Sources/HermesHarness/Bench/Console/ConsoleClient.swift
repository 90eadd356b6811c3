package import Foundation
package import HermesTransport
import HermesWire

/// A console user signed in over HTTP as the console's page is: `POST /console/api/sign-in`,
/// then every request with the `hermes_session` cookie it set. Plain HTTP/1.1 over kept-alive
/// loopback connections (``SocketHTTPTransport``), the same for every page measured.
package struct ConsoleClient: Sendable {
    /// The collector's address, `http://127.0.0.1:<port>`.
    package let origin: String
    /// The `Cookie` header's value: `hermes_session=<token>`.
    package let cookie: String
    private let transport: SocketHTTPTransport

    private init(origin: String, cookie: String, transport: SocketHTTPTransport) {
        self.origin = origin
        self.cookie = cookie
        self.transport = transport
    }

    /// Signs in to the console of the collector on `port` of 127.0.0.1.
    /// - Throws: ``RunFailure`` unless the collector answers 200 with the session cookie.
    package static func signIn(port: Int, name: String, password: String) async throws -> ConsoleClient {
        let origin = "http://127.0.0.1:\(port)"
        let transport = SocketHTTPTransport()
        let body: JSONValue = ["name": .string(name), "password": .string(password)]
        let response = try await transport.send(
            TransportRequest(
                method: "POST", url: try requireURL(origin + "/console/api/sign-in"), headers: ["Content-Type": "application/json"],
                body: try body.jsonBytes()))
        guard response.status == 200, let setCookie = response.header("Set-Cookie"), setCookie.hasPrefix("hermes_session=") else {
            throw RunFailure("the console refused the sign-in (status \(response.status))")
        }
        return ConsoleClient(origin: origin, cookie: String(setCookie.prefix { $0 != ";" }), transport: transport)
    }

    /// The body of `GET <path>` (path and query, percent-encoded).
    /// - Throws: ``RunFailure`` unless the console answers 200.
    package func get(_ path: String) async throws -> [UInt8] {
        let response = try await transport.send(TransportRequest(method: "GET", url: try requireURL(origin + path), headers: ["Cookie": cookie]))
        guard response.status == 200 else {
            throw RunFailure("GET \(path) answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
        return response.body
    }
}
