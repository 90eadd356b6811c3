import Hummingbird
import Logging

/// Times every request and, once it is answered, records it in the request duration histogram
/// (by route pattern, method and status) and logs it at `debug`: method, path, status and
/// milliseconds (never headers, query values or bodies: they may hold keys, tokens or records).
/// Run a collector with `--log-level debug` to see the lines.
struct RequestObservingMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: CollectorMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            observe(request, context, status: response.status.code, since: started)
            return response
        } catch {
            observe(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
            throw error
        }
    }

    private func observe(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        metrics.observeRequest(route: context.endpointPath ?? "unmatched", method: "\(request.method)", status: status, duration: elapsed)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.debug(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status)",
                "duration_ms": "\((milliseconds * 100).rounded() / 100)",
            ])
    }
}
