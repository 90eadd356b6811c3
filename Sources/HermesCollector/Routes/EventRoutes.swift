import HermesWire
import Hummingbird

/// `GET /v1/events` and `GET /v1/events/count`: stored records by namespace, type and
/// `CREATE_TIME` range. Registered behind the admin token (``AuthenticationMiddleware``):
/// events hold user data. A page holds at most `limit` events and
/// ``EventQuery/maximumPageBytes`` of stored meta and payload; when more match it carries
/// `next`, an opaque cursor: send it back as `cursor` for the page after it.
///
/// `GET /v1/events/arrivals?receivedSince=…`: with the same filters and `limit`, the records
/// that arrived at or after `receivedSince` (the collector's ms; its clock now when absent),
/// oldest arrival first, and `now`, the collector's clock: what `hermes events --follow` polls.
struct EventRoutes<Storage: CollectorStorage> {
    let storage: Storage
    let wallClock: @Sendable () -> Int64

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: HermesPath.events)) { request, _ -> Response in
            let query = try EventQuery(request.uri.queryParameters)
            let page = try await withStorageErrors("read events") { try await storage.events(query) }
            let next = page.next.map { JSONValue.string($0.token) } ?? .null
            return try .json(["events": .array(page.map(\.json)), "count": .int(Int64(page.count)), "next": next])
        }
        router.get(RouterPath(stringLiteral: HermesPath.events + "/count")) { request, _ -> Response in
            let query = try EventQuery(request.uri.queryParameters)
            let count = try await withStorageErrors("count events") { try await storage.count(query) }
            return try .json(["count": .int(Int64(count))])
        }
        router.get(RouterPath(stringLiteral: HermesPath.events + "/arrivals")) { request, _ -> Response in
            let query = try EventQuery(request.uri.queryParameters)
            let now = wallClock()
            let since = try EventQuery.integer("receivedSince", in: request.uri.queryParameters) ?? now
            let events = try await withStorageErrors("read new records") { try await storage.arrivals(query, receivedSince: since) }
            return try .json(["events": .array(events.map(\.json)), "count": .int(Int64(events.count)), "now": .int(now)])
        }
    }
}
