import HermesWire
import Hummingbird
import Logging

/// Signing in and out, and the first run:
/// - `GET /console/api/setup`: whether the console has no user yet;
/// - `POST /console/api/setup` `{token, name, password}`: with the collector's admin token,
///   makes the first admin and signs them in (refused once any user exists);
/// - `POST /console/api/sign-in` `{name, password}`; `POST /console/api/sign-out`;
/// - `GET /console/api/session`: who is signed in, their role and the CSRF token.
struct ConsoleSessionRoutes {
    let gate: ConsoleGate
    let adminToken: String
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/setup") { _, _ -> Response in
            let users = try await withStorageErrors("read the users") { try await gate.storage.consoleUsers() }
            return try .json(["needed": .bool(users.isEmpty)])
        }
        router.post("/console/api/setup") { request, _ -> Response in
            let body = try await request.consoleJSON()
            guard SecretToken.equal(try body.requiredString("token"), adminToken) else {
                throw CollectorError(.unauthorized, "the first admin needs the collector's admin token")
            }
            let users = try await withStorageErrors("read the users") { try await gate.storage.consoleUsers() }
            guard users.isEmpty else { throw CollectorError(.forbidden, "the console already has users; sign in") }
            let name = try body.requiredString("name")
            try ConsoleUser.validate(name: name)
            let hash = try await PasswordHasher.hash(try body.requiredString("password"), cost: gate.settings.passwordCost)
            let user = ConsoleUser(name: name, role: .admin, passwordHash: hash, createdAt: gate.wallClock())
            try await withStorageErrors("save the user") { try await gate.storage.saveConsoleUser(user) }
            logger.notice("console: first admin made", metadata: ["user": "\(name)"])
            return try await signedIn(gate.open(for: user, request))
        }
        router.post("/console/api/sign-in") { request, _ -> Response in
            let body = try await request.consoleJSON()
            // A refusal is logged once, by the rejection middleware.
            return try await signedIn(gate.signIn(name: try body.requiredString("name"), password: try body.requiredString("password"), request))
        }
        router.post("/console/api/sign-out") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let cookie = try await gate.signOut(request)
            return try .json(["signedOut": true], headers: [.setCookie: cookie])
        }
        router.get("/console/api/session") { request, _ -> Response in
            try .json(Self.json(try await gate.require(.viewer, request)))
        }
    }

    private func signedIn(_ opened: (ConsoleSession, String)) throws -> Response {
        logger.info("console: signed in", metadata: ["user": "\(opened.0.userName)"])
        return try .json(Self.json(opened.0), headers: [.setCookie: opened.1])
    }

    private static func json(_ session: ConsoleSession) -> JSONValue {
        ["user": .string(session.userName), "role": .string(session.role.rawValue), "csrf": .string(session.csrfToken)]
    }
}
