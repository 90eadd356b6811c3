import Hummingbird
import Logging

/// Logs and counts every request refused with a ``CollectorError``, once, then lets the router
/// answer it with the error's status and JSON reason.
struct RejectionMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: CollectorMetrics
    let history: RejectionHistory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as CollectorError {
            metrics.countReject(error.code)
            history.count()
            var metadata: Logger.Metadata = [
                "error": "\(error.code)", "reason": "\(error.message)",
                "method": "\(request.method)", "path": "\(request.uri.path)",
            ]
            metadata["namespace"] = request.headers[.hermesNamespace].map { "\($0)" }
            metadata["batch_id"] = request.headers[.hermesBatchID].map { "\($0)" }
            // A store that fails is the operator's problem; a full budget is load, counted in /metrics.
            let level: Logger.Level = error.status.code >= 500 && error.code != .busy ? .error : .notice
            context.logger.log(level: level, "request refused", metadata: metadata)
            throw error
        }
    }
}
