import HermesWire
import Hummingbird
import Logging

/// `POST /v1/sync`, behind the app key check (``AuthenticationMiddleware``): reads a
/// ``SyncRequest``, answers a ``SyncAnswer`` (see docs/sync.md). A body that is not a valid
/// request is refused with 400 and nothing is applied; a device credential (``SyncDevice``) goes
/// as `Authorization: Bearer hsd_…` beside the app key.
///
/// Compression both ways: a body sent with `Content-Encoding: gzip` is inflated, to at most the
/// bytes a plain body may have (``SyncCompression``); an answer of more than a kilobyte goes
/// gzipped when the request's `Accept-Encoding` names gzip.
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
        // The body, what it inflates to, and the values parsed from that.
        let gzipped = SyncCompression.isGzip(request.headers[.contentEncoding])
        let body = request.bodyReservation(upTo: maxBodyBytes)
        return try await budget.withReservation(gzipped ? body + 4 * maxBodyBytes : 4 * body) { try await answer(request, gzipped: gzipped) }
    }

    private func answer(_ request: Request, gzipped: Bool) async throws -> Response {
        let body = try await request.bodyBytes(upTo: maxBodyBytes)
        let syncRequest: SyncRequest
        do throws(HermesWireError) {
            syncRequest = try SyncRequest(jsonBytes: gzipped ? try Gzip.decompress(body, limit: maxBodyBytes) : body)
        } catch {
            throw CollectorError(error)
        }
        let now = wallClock()
        let clock = ContinuousClock()
        let start = clock.now
        // A device's credential; an ingest token that stood in for the app key is not one.
        let credential = request.headers.bearerToken.flatMap { $0.hasPrefix(SyncDevice.secretPrefix) ? String($0) : nil }
        let answer = try await server.answer(syncRequest, credential: credential, now: now)
        metrics.countSync(answer, duration: clock.now - start)
        let conflicts = answer.outcomes.filter { $0.conflict == true }.count
        logger.debug(
            "sync answered",
            metadata: [
                "client_id": "\(syncRequest.clientID)", "change_sets": "\(syncRequest.changeSets.count)", "conflicts": "\(conflicts)",
                "max_revision": "\(answer.maxRevision)", "has_more": "\(answer.hasMore)",
            ])
        let json = try answer.jsonBytes()
        guard SyncCompression.accepts(request.headers[.acceptEncoding]), json.count > SyncCompression.smallestCompressed else {
            return .json(bytes: json)
        }
        return .json(bytes: try Gzip.compress(json, level: Gzip.fastLevel), headers: [.contentEncoding: "gzip", .vary: "Accept-Encoding"])
    }
}
