import Hummingbird

/// Checks a request's credentials before any route of its group runs, so no handler sees an
/// unauthenticated request: the admin token for the admin and event routes, a known app key
/// for uploads. A refusal is a ``CollectorError/Code/unauthorized`` (401).
struct AuthenticationMiddleware<Context: RequestContext>: RouterMiddleware {
    let check: @Sendable (Request) throws(CollectorError) -> Void

    /// `Authorization: Bearer <token>`: the admin token, or one of `tokens` with `scope`.
    static func bearer(_ scope: TokenScope, adminToken: String, tokens: [String: Set<TokenScope>]) -> Self {
        let allowed = [adminToken] + tokens.filter { $0.value.contains { $0.allows(scope) } }.keys
        return Self { request throws(CollectorError) in try request.requireBearer(allowed, scope: scope) }
    }

    /// `X-Hermes-App-Key` with one of `appKeys` (or, without that header, `Authorization: Bearer`
    /// with a token of `tokens` whose scopes allow ``TokenScope/ingest``), for a namespace it may
    /// write (`namespaces`, by key), within its rate when a `limiter` is given (a refusal counted
    /// by key id in `metrics`).
    static func appKey(
        in appKeys: Set<String>, tokens: [String: Set<TokenScope>] = [:], namespaces: [String: Set<String>] = [:],
        limiter: AppKeyRateLimiter? = nil, metrics: CollectorMetrics? = nil, wallClock: @escaping @Sendable () -> Int64
    ) -> Self {
        let ingestTokens = Array(tokens.filter { $0.value.contains { $0.allows(.ingest) } }.keys)
        return Self { request throws(CollectorError) in
            let key = try request.requireAppKey(in: appKeys, orIngestToken: ingestTokens)
            if let allowed = namespaces[key], let namespace = request.headers[.hermesNamespace], !allowed.contains(namespace) {
                throw CollectorError(.namespaceNotAllowed, "this app key may not write namespace \(namespace)")
            }
            do throws(CollectorError) {
                try limiter?.take(key, now: wallClock())
            } catch {
                metrics?.countRateLimited(keyID: AppKeyID.of(key))
                throw error
            }
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try check(request)
        return try await next(request, context)
    }
}
