import HermesWire
import Hummingbird
import Logging

/// `POST /v1/sync`, behind the app key check (``AuthenticationMiddleware``): reads a
/// ``SyncRequest``, answers a ``SyncAnswer`` (see docs/sync.md). A body that is not a valid
/// request is refused with 400 and nothing is applied.
struct SyncRoutes {
    let server: SyncServer
    let maxBodyBytes: Int
    let budget: RequestBudget
    let metrics: CollectorMetrics
    let wallClock: @Sendable () -> Int64
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.post(RouterPath(stringLiteral: HermesPath.sync)) { request, _ in
            try await sync(request)
        }
    }

    private func sync(_ request: Request) async throws -> Response {
        // The body, and the values parsed from it.
        try await budget.withReservation(4 * request.bodyReservation(upTo: maxBodyBytes)) { try await answer(request) }
    }

    private func answer(_ request: Request) async throws -> Response {
        let body = try await request.bodyBytes(upTo: maxBodyBytes)
        let syncRequest: SyncRequest
        do throws(HermesWireError) {
            syncRequest = try SyncRequest(jsonBytes: body)
        } catch {
            throw CollectorError(error)
        }
        let now = wallClock()
        let clock = ContinuousClock()
        let start = clock.now
        let answer = try await server.answer(syncRequest, now: now)
        metrics.countSync(answer, duration: clock.now - start)
        let conflicts = answer.outcomes.filter { $0.conflict == true }.count
        logger.debug(
            "sync answered",
            metadata: [
                "client_id": "\(syncRequest.clientID)", "change_sets": "\(syncRequest.changeSets.count)", "conflicts": "\(conflicts)",
                "max_revision": "\(answer.maxRevision)", "has_more": "\(answer.hasMore)",
            ])
        return .json(bytes: try answer.jsonBytes())
    }
}
