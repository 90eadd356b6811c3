import HermesWire
import Hummingbird
import Logging

/// `GET /v1/events/export?format=ndjson|csv&…`: every stored record the filters of
/// `GET /v1/events` match (``EventQuery/init(filters:)``), oldest first in `(createTime, id)`
/// order, as one streamed download (``EventExportFormat``). Registered behind the admin token.
///
/// The store is read page by page with the cursor, each page written to the body as it is
/// read, so any range takes the memory of one page. `limit` (optional, any positive number)
/// caps the records written; `cursor` (a `next` of `GET /v1/events`) starts after a record.
/// The filters and the first page are read before the answer starts: a bad filter answers 400
/// and a failing store 503, as JSON. A store failure after that is logged once and ends the
/// stream without its last chunk, so a client sees a cut download rather than a short one.
struct EventExportRoute<Storage: CollectorStorage> {
    /// The records one store read brings.
    static var pageLimit: Int { 1_000 }

    let storage: Storage
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: HermesPath.events + "/export")) { request, _ -> Response in
            let parameters = request.uri.queryParameters
            guard let format = EventExportFormat(rawValue: parameters.get("format") ?? EventExportFormat.ndjson.rawValue) else {
                throw CollectorError(.invalidQuery, "format must be ndjson or csv")
            }
            var query = try EventQuery(filters: parameters)
            query.limit = Self.pageLimit
            let total = try EventQuery.integer("limit", in: parameters) ?? Int64.max
            guard total >= 1 else { throw CollectorError(.invalidQuery, "limit must be at least 1") }
            let first = try await withStorageErrors("read events") { try await storage.events(query) }
            return Response(
                status: .ok,
                headers: [
                    .contentType: format.contentType, .contentDisposition: "attachment; filename=\"\(format.fileName)\"",
                    .cacheControl: "no-store",
                ],
                body: ResponseBody { [storage, logger, query] writer in
                    try await Self.stream(
                        first, of: query, as: format, total: total, storage: storage, logger: logger, into: &writer)
                })
        }
    }

    /// Writes `first` and the pages after it until none is left or `total` records are written.
    private static func stream(
        _ first: EventPage, of query: EventQuery, as format: EventExportFormat, total: Int64, storage: Storage, logger: Logger,
        into writer: inout any ResponseBodyWriter
    ) async throws {
        var query = query
        var page = first
        var remaining = total
        var buffer = ByteBuffer(string: format.header)
        while true {
            for event in page.prefix(Int(min(remaining, Int64(page.count)))) {
                buffer.writeString(try format.line(event.json))
            }
            remaining -= Int64(min(remaining, Int64(page.count)))
            try await writer.write(buffer)
            buffer.clear()
            guard remaining > 0, let next = page.next else { break }
            query.after = next
            do {
                page = try await storage.events(query)
            } catch {
                logger.error(
                    "an export stopped: could not read events", metadata: ["error": "\(describeStorageError(error))"])
                throw error
            }
        }
        try await writer.finish(nil)
    }
}
