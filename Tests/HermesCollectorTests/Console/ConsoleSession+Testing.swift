import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A signed-in console session in a test: the cookie and the CSRF token to send back.
struct ConsoleTestSession {
    static let password = "correct horse battery"

    let cookie: String
    let csrf: String

    /// Makes a user in `storage` (bcrypt cost 4) and signs in as them.
    static func signIn(
        _ client: any TestClientProtocol, storage: some ConsoleStorage, name: String = "ada", role: ConsoleRole = .admin
    ) async throws -> ConsoleTestSession {
        let hash = try await PasswordHasher.hash(password, cost: 4)
        try await storage.saveConsoleUser(ConsoleUser(name: name, role: role, passwordHash: hash, createdAt: 0))
        let response = try await client.console("/console/api/sign-in", method: .post, body: ["name": .string(name), "password": .string(password)])
        guard response.status == .ok, let setCookie = response.headers[.setCookie], let csrf = try response.json()["csrf"]?.stringValue else {
            throw ConsoleTestError("sign-in failed: \(response.status) \(response.text)")
        }
        return ConsoleTestSession(cookie: String(setCookie.split(separator: ";")[0]), csrf: csrf)
    }
}

struct ConsoleTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension CollectorFixture {
    /// The fixture with fast password hashes for the console.
    static func console() throws -> CollectorFixture {
        var fixture = try CollectorFixture()
        fixture.configuration.console.passwordCost = 4
        return fixture
    }
}

extension TestClientProtocol {
    /// A console request: with `session`'s cookie, and its CSRF token unless `csrf` is false.
    func console(
        _ uri: String, method: HTTPRequest.Method = .get, session: ConsoleTestSession? = nil, csrf: Bool = true, body: JSONValue? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let session {
            headers[.cookie] = session.cookie
            if csrf { headers[.csrfToken] = session.csrf }
        }
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: try body.map { ByteBuffer(bytes: try $0.jsonBytes()) })
    }
}

extension JSONValue {
    /// The elements of an array, or `nil`.
    var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The element at `index` of an array, or `nil`.
    subscript(index: Int) -> JSONValue? {
        guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
