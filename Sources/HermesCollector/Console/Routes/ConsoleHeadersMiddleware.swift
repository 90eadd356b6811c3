import Hummingbird

/// Adds the console's security headers to every `/console` answer, errors included: a strict
/// Content-Security-Policy (scripts, styles and requests only from the collector itself, no
/// inline script or style, no framing), `nosniff`, no referrer, and no caching of API answers.
struct ConsoleHeadersMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            Self.secure(&response.headers)
            return response
        } catch let error as any HTTPResponseError {
            var response = try error.response(from: request, context: context)
            Self.secure(&response.headers)
            return response
        }
    }

    private static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.frameOptions] = "DENY"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }
}
