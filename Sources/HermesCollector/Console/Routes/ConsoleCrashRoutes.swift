import HermesWire
import Hummingbird

/// Crash groups, for viewers (the grouping itself runs in ``CrashGroupingService``):
/// - `GET /console/api/crashes?days=N` (1…90, default 30): the groups with crashes in the last
///   `days`, the latest crash first: signature, title, count, users affected, first and last
///   seen, app versions;
/// - `GET /console/api/crashes/{signature}?days=N`: one group, its latest crash (the record
///   page's fields, the symbolicated stack as `payloadText`) and its crashes per hour (per day
///   past two days) for a chart: `buckets` lists those with crashes, from `since` on.
struct ConsoleCrashRoutes<Storage: CollectorStorage> {
    let gate: ConsoleGate
    let storage: Storage

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/crashes") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let days = try Self.days(request)
            let since = gate.wallClock() - days * 86_400_000
            let groups = try await withStorageErrors("read the crash groups") { try await storage.crashGroups(since: since, until: nil, limit: 200) }
            return try .json(["groups": .array(groups.map(Self.json))])
        }
        router.get("/console/api/crashes/{signature}") { request, context -> Response in
            _ = try await gate.require(.viewer, request)
            guard let signature = context.parameters.get("signature") else { throw CollectorError(.invalidQuery, "the path needs a signature") }
            let days = try Self.days(request)
            let since = gate.wallClock() - days * 86_400_000
            let bucket: Int64 = days <= 2 ? 3_600_000 : 86_400_000
            let found = try await withStorageErrors("read the crash group") {
                try await storage.crashGroup(signature: signature, since: since, until: nil, bucket: bucket)
            }
            guard let group = found else { throw CollectorError(.notFound, "there is no crash group \(signature) in the last \(days) days") }
            return try .json([
                "group": Self.json(group.summary), "latest": group.latest?.consoleDetail ?? .null, "bucket": .int(bucket), "since": .int(since),
                "buckets": .array(group.buckets.map { [.int($0.start), .int(Int64($0.count))] }),
            ])
        }
    }

    private static func days(_ request: Request) throws(CollectorError) -> Int64 {
        let days = request.uri.queryParameters.get("days").flatMap(Int64.init) ?? 30
        guard (1...90).contains(days) else { throw CollectorError(.invalidQuery, "days must be between 1 and 90") }
        return days
    }

    private static func json(_ group: CrashGroupSummary) -> JSONValue {
        [
            "signature": .string(group.signature), "title": .string(group.title), "culprit": group.culprit.map(JSONValue.string) ?? .null,
            "count": .int(Int64(group.count)), "usersAffected": .int(Int64(group.usersAffected)), "firstSeen": .int(group.firstSeen),
            "lastSeen": .int(group.lastSeen), "appVersions": .array(group.appVersions.map(JSONValue.string)),
        ]
    }
}
