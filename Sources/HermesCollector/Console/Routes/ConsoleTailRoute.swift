import HermesWire
import Hummingbird
import ServiceLifecycle

/// `GET /console/api/tail?…`: new records as they arrive, as server-sent events (`event:
/// record`, the row of the records table as `data`), with the records page's filters.
///
/// The stream polls the store every ``ConsoleSettings/tailInterval`` for records that arrived
/// since the last it sent, less a margin for uploads still committing, and skips those it sent:
/// it sees what every collector sharing the store takes in. Each event's `id` is its arrival
/// time, so a browser that reconnects (`Last-Event-ID`) goes on where it stopped. A stream ends
/// after ``ConsoleSettings/tailStreamLifetime`` (the browser reconnects) and at the
/// collector's shutdown.
struct ConsoleTailRoute<Storage: CollectorStorage> {
    /// How far back each poll looks before the newest arrival sent: uploads received earlier
    /// may commit later.
    static var commitMargin: Int64 { 5_000 }
    /// The most records one poll reads.
    static var pollLimit: Int { 200 }

    let gate: ConsoleGate
    let storage: Storage

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/tail") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            var query = try ConsoleRecordQuery.query(request.uri.queryParameters)
            query.limit = Self.pollLimit
            let resumeFrom = request.headers[.lastEventID].flatMap(Int64.init)
            let start = resumeFrom ?? gate.wallClock()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { [storage, gate, query] writer in
                    try await Self.stream(query, from: start, storage: storage, settings: gate.settings, into: &writer)
                })
        }
    }

    private static func stream(
        _ query: EventQuery, from start: Int64, storage: Storage, settings: ConsoleSettings, into writer: inout any ResponseBodyWriter
    ) async throws {
        try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
        var newest = start
        var sent: [Int64: Int64] = [:]
        let deadline = ContinuousClock.now + settings.tailStreamLifetime
        while ContinuousClock.now < deadline, !Task.isCancelled, !Task.isShuttingDownGracefully {
            let events = try await storage.arrivals(query, receivedSince: newest - commitMargin)
            var text = ""
            for event in events where sent[event.id] == nil && event.receivedAt >= start {
                sent[event.id] = event.receivedAt
                newest = max(newest, event.receivedAt)
                text += "id: \(newest)\nevent: record\ndata: \(try event.consoleSummary.jsonString())\n\n"
            }
            sent = sent.filter { $0.value >= newest - commitMargin }
            try await writer.write(ByteBuffer(string: text.isEmpty ? ": waiting\n\n" : text))
            try await Task.sleep(for: settings.tailInterval)
        }
        try await writer.finish(nil)
    }
}
