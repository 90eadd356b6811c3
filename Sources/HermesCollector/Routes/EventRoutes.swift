import HermesWire
import Hummingbird

/// `GET /v1/events` and `GET /v1/events/count`: stored records by namespace, type and
/// `CREATE_TIME` range. Registered behind the admin token (``AuthenticationMiddleware``):
/// events hold user data. A full page of events
/// carries `next`, an opaque cursor: send it back as `cursor` for the page after it.
struct EventRoutes<Storage: CollectorStorage> {
    let storage: Storage

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: HermesPath.events)) { request, _ -> Response in
            let query = try EventQuery(request.uri.queryParameters)
            let events = try await withStorageErrors("read events") { try await storage.events(query) }
            // A full page may have more after it: its last event is where the next one starts.
            let next = events.count == query.limit ? events.last.map { JSONValue.string(EventCursor(after: $0).token) } : nil
            return try .json(["events": .array(events.map(\.json)), "count": .int(Int64(events.count)), "next": next ?? .null])
        }
        router.get(RouterPath(stringLiteral: HermesPath.events + "/count")) { request, _ -> Response in
            let query = try EventQuery(request.uri.queryParameters)
            let count = try await withStorageErrors("count events") { try await storage.count(query) }
            return try .json(["count": .int(Int64(count))])
        }
    }
}
