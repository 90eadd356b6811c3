import HermesWire
import Hummingbird

/// The records table and a record's page, for viewers:
/// - `GET /console/api/records?…` (``ConsoleRecordQuery``): a page, newest first, and `next`;
/// - `GET /console/api/records/{createTime}/{id}`: one record with its meta and payload text;
/// - `GET /console/api/records/{createTime}/{id}/payload`: its payload as a download.
struct ConsoleRecordRoutes<Storage: CollectorStorage> {
    let gate: ConsoleGate
    let storage: Storage

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/records") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let query = try ConsoleRecordQuery.query(request.uri.queryParameters)
            let page = try await withStorageErrors("read records") { try await storage.events(query) }
            return try .json(["records": .array(page.map(\.consoleSummary)), "next": page.next.map { .string($0.token) } ?? .null])
        }
        router.get("/console/api/records/{createTime}/{id}") { request, context -> Response in
            _ = try await gate.require(.viewer, request)
            return try .json(try await record(context).consoleDetail)
        }
        router.get("/console/api/records/{createTime}/{id}/payload") { request, context -> Response in
            _ = try await gate.require(.viewer, request)
            let event = try await record(context)
            guard let payload = event.payload else { throw CollectorError(.notFound, "this record has no payload") }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/octet-stream",
                    .contentDisposition: "attachment; filename=\"\(event.reportID.filter { $0.isLetter || $0.isNumber || $0 == "-" }).payload\"",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: payload)))
        }
    }

    /// The record the path names by its `createTime` and store id.
    private func record(_ context: BasicRequestContext) async throws -> StoredEvent {
        guard let createTime = context.parameters.get("createTime").flatMap(Int64.init), let id = context.parameters.get("id").flatMap(Int64.init)
        else {
            throw CollectorError(.invalidQuery, "the path needs a record's createTime and id")
        }
        let query = EventQuery(since: createTime, until: createTime + 1, after: EventCursor(createTime: createTime, id: id - 1), limit: 1)
        let page = try await withStorageErrors("read the record") { try await storage.events(query) }
        guard let event = page.first, event.id == id else { throw CollectorError(.notFound, "there is no such record") }
        return event
    }
}
