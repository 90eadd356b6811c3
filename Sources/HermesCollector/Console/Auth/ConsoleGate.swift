import Hummingbird

/// Who is asking: the console's sign-in, sign-out and the check in front of every console page
/// and endpoint.
///
/// A session is a random token in the `hermes_session` cookie (`HttpOnly`, `SameSite=Strict`,
/// `Path=/console`, `Secure` over TLS); the store keeps only the token's SHA-256, the user, the
/// end time and the session's CSRF token, which every state-changing request must carry in
/// `X-CSRF-Token`.
struct ConsoleGate: Sendable {
    static let cookieName = "hermes_session"

    let storage: any ConsoleStorage
    let settings: ConsoleSettings
    let throttle: SignInThrottle
    let wallClock: @Sendable () -> Int64
    /// A hash of no one's password, checked when the name is unknown, so that the time taken
    /// does not tell which names exist; made at the first such sign-in.
    private let decoyHash = SharedSlot<String>()

    init(storage: any ConsoleStorage, settings: ConsoleSettings, wallClock: @escaping @Sendable () -> Int64) {
        self.storage = storage
        self.settings = settings
        self.throttle = SignInThrottle(limit: settings.signInAttemptsPerMinute)
        self.wallClock = wallClock
    }

    /// The request's session, checked for `role`, and for the CSRF token unless the method is
    /// safe (`GET`, `HEAD`).
    /// - Throws: ``CollectorError/Code/unauthorized`` without a live session,
    ///   ``CollectorError/Code/forbidden`` for a role below `role` or a missing or wrong CSRF token.
    func require(_ role: ConsoleRole, _ request: Request) async throws(CollectorError) -> ConsoleSession {
        guard let token = Self.sessionToken(request),
            let session = try await withStorageErrors(
                "read the session", { try await storage.consoleSession(tokenHash: SecretToken.hash(token), now: wallClock()) })
        else {
            throw CollectorError(.unauthorized, "sign in to the console first")
        }
        if ![.get, .head].contains(request.method) {
            guard let sent = request.headers[.csrfToken], SecretToken.equal(sent, session.csrfToken) else {
                throw CollectorError(.forbidden, "this request needs the session's X-CSRF-Token header")
            }
        }
        guard session.role.allows(role) else {
            throw CollectorError(.forbidden, "this needs the \(role.rawValue) role; you are \(session.role.rawValue)")
        }
        return session
    }

    /// Checks a name and password and opens a session.
    /// - Returns: the session and its `Set-Cookie` value.
    /// - Throws: ``CollectorError/Code/unauthorized`` for a wrong name or password (the same
    ///   message for both), ``CollectorError/Code/tooManyAttempts`` past the attempts allowed.
    func signIn(name: String, password: String, _ request: Request) async throws(CollectorError) -> (ConsoleSession, String) {
        let now = wallClock()
        try throttle.check(name, now: now)
        let user = try await withStorageErrors("read the user") { try await storage.consoleUser(named: name) }
        let hash = if let user { user.passwordHash } else { await decoy() }
        let matches = await PasswordHasher.verify(password, hash: hash)
        guard let user, matches else {
            throttle.fail(name, now: now)
            throw CollectorError(.unauthorized, "wrong user name or password")
        }
        return try await open(for: user, request)
    }

    private func decoy() async -> String {
        if let made = decoyHash.value { return made }
        // A random 64-character password: hashing it cannot fail.
        let made = (try? await PasswordHasher.hash(SecretToken.make(), cost: settings.passwordCost)) ?? ""
        decoyHash.set(made)
        return made
    }

    /// Opens a session for `user` (after a sign-in, or the first admin's creation).
    func open(for user: ConsoleUser, _ request: Request) async throws(CollectorError) -> (ConsoleSession, String) {
        let now = wallClock()
        let token = SecretToken.make()
        let lifetime = settings.sessionLifetime.components.seconds
        let session = ConsoleSession(
            tokenHash: SecretToken.hash(token), userName: user.name, role: user.role, csrfToken: SecretToken.make(),
            expiresAt: now + lifetime * 1_000)
        try await withStorageErrors("save the session") { try await storage.createConsoleSession(session, now: now) }
        return (session, cookie(token, maxAge: lifetime, request))
    }

    /// Ends the request's session, if any.
    /// - Returns: the `Set-Cookie` value that clears the cookie.
    func signOut(_ request: Request) async throws(CollectorError) -> String {
        if let token = Self.sessionToken(request) {
            try await withStorageErrors("end the session") { try await storage.removeConsoleSession(tokenHash: SecretToken.hash(token)) }
        }
        return cookie("", maxAge: 0, request)
    }

    private func cookie(_ token: String, maxAge: Int64, _ request: Request) -> String {
        let secure = settings.secureCookie ?? (request.headers[.forwardedProto] == "https")
        return "\(Self.cookieName)=\(token); Path=/console; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    private static func sessionToken(_ request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingPrefix(" ").split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == cookieName, !parts[1].isEmpty { return String(parts[1]) }
            }
        }
        return nil
    }
}
