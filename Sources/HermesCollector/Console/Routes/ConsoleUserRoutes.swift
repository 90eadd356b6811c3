import HermesWire
import Hummingbird
import Logging

/// Console users, for admins: `GET /console/api/users`, `POST /console/api/users`
/// `{name, role, password}` (adds or replaces), `DELETE /console/api/users/{name}`.
struct ConsoleUserRoutes {
    let gate: ConsoleGate
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/users") { request, _ -> Response in
            _ = try await gate.require(.admin, request)
            let users = try await withStorageErrors("read the users") { try await gate.storage.consoleUsers() }
            return try .json(
                ["users": .array(users.map { ["name": .string($0.name), "role": .string($0.role.rawValue), "createdAt": .int($0.createdAt)] })])
        }
        router.post("/console/api/users") { request, _ -> Response in
            let session = try await gate.require(.admin, request)
            let body = try await request.consoleJSON()
            let name = try body.requiredString("name")
            try ConsoleUser.validate(name: name)
            guard let role = ConsoleRole(rawValue: try body.requiredString("role")) else {
                throw CollectorError(.invalidQuery, "role must be viewer, editor or admin")
            }
            let hash = try await PasswordHasher.hash(try body.requiredString("password"), cost: gate.settings.passwordCost)
            let user = ConsoleUser(name: name, role: role, passwordHash: hash, createdAt: gate.wallClock())
            try await withStorageErrors("save the user") { try await gate.storage.saveConsoleUser(user) }
            logger.notice("console: user saved", metadata: ["user": "\(name)", "role": "\(role.rawValue)", "by": "\(session.userName)"])
            return try .json(["name": .string(name), "role": .string(role.rawValue)])
        }
        router.delete("/console/api/users/{name}") { request, context -> Response in
            let session = try await gate.require(.admin, request)
            guard let name = context.parameters.get("name") else { throw CollectorError(.invalidQuery, "the path needs a user name") }
            guard name != session.userName else { throw CollectorError(.forbidden, "you cannot remove yourself") }
            let removed = try await withStorageErrors("remove the user") { try await gate.storage.removeConsoleUser(named: name) }
            guard removed else { throw CollectorError(.notFound, "there is no console user named \(name)") }
            logger.notice("console: user removed", metadata: ["user": "\(name)", "by": "\(session.userName)"])
            return try .json(["removed": .string(name)])
        }
    }
}
