import Hummingbird
import Logging

/// Logs every request once it is answered, at `debug`: method, path, status and time taken
/// (never headers, query values or bodies: they may hold keys, tokens or records). Run a
/// collector with `--log-level debug` to see them.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, since: started)
            return response
        } catch {
            log(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.debug("request", metadata: [
            "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status)",
            "duration_ms": "\((milliseconds * 100).rounded() / 100)",
        ])
    }
}
