import Foundation
import HermesCollector
import HermesSync
import HermesWire

/// The schema the sync tests share: teams, and players that belong to a team.
enum TestSchema {
    static let v1 = SyncSchema(
        version: 1,
        types: [
            SyncEntityType("teams", attributes: [.init("name", .string)]),
            SyncEntityType(
                "players",
                attributes: [
                    .init("name", .string), .init("number", .integer), .init("active", .bool), .init("team_id", .reference("teams")),
                ]),
        ])
}

/// A transport that hands requests to a ``SyncServer`` in process, and can lose the next answers
/// after the server applied the request (as a dropped connection would) or be offline.
final class ServerTransport: SyncTransport {
    struct Lost: Error {}

    let server: SyncServer
    private let faults = Locked((dropAnswers: 0, offline: false, exchanges: 0))

    init(server: SyncServer) {
        self.server = server
    }

    /// The next `count` answers are lost after the server committed.
    func dropAnswers(_ count: Int) { faults.withLock { $0.dropAnswers = count } }
    func setOffline(_ offline: Bool) { faults.withLock { $0.offline = offline } }
    var exchanges: Int { faults.withLock { $0.exchanges } }

    func exchange(_ request: [UInt8]) async throws -> [UInt8] {
        if faults.withLock({ $0.offline }) { throw Lost() }
        let answer = try await server.answer(try SyncRequest(jsonBytes: request), now: 1_000)
        let drop = faults.withLock { faults in
            faults.exchanges += 1
            defer { faults.dropAnswers = max(0, faults.dropAnswers - 1) }
            return faults.dropAnswers > 0
        }
        if drop { throw Lost() }
        return try answer.jsonBytes()
    }
}

/// Runs `body` with a new directory for device databases, removed after it.
func withSyncDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-sync-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}

/// A server on an in-memory store, and devices talking to it in process.
struct SyncFixture {
    let storage: SQLiteSyncStorage
    let server: SyncServer

    init(schema: SyncSchema = TestSchema.v1, pageRecords: Int = 5_000, permission: @escaping SyncRules.Permission = { _, _ in true }) throws {
        storage = try SQLiteSyncStorage.inMemory()
        server = SyncServer(storage: storage, rules: SyncRules(schema: schema, pageRecords: pageRecords, permission: permission))
    }

    func device(_ id: String, schema: SyncSchema = TestSchema.v1) throws -> (SyncClient, ServerTransport) {
        let transport = ServerTransport(server: server)
        return (try SyncClient(path: nil, clientID: id, schema: schema, transport: transport), transport)
    }
}

extension SyncClient {
    /// The local records of every type, by type and id, for comparing with the server.
    func allRecords() throws -> [SyncRecord] {
        try schema.types.map(\.name).sorted().flatMap { try records($0) }
    }
}

/// A transport that answers each request with the next of a fixed list of answers, as a server
/// would send them, and keeps the requests.
final class ScriptedTransport: SyncTransport {
    struct Exhausted: Error {}

    private let state: Locked<(answers: [SyncAnswer], requests: [SyncRequest])>

    init(_ answers: [SyncAnswer]) {
        state = Locked((answers, []))
    }

    var requests: [SyncRequest] { state.withLock { $0.requests } }

    func exchange(_ request: [UInt8]) async throws -> [UInt8] {
        let parsed = try SyncRequest(jsonBytes: request)
        let answer = try state.withLock { state in
            state.requests.append(parsed)
            guard !state.answers.isEmpty else { throw Exhausted() }
            return state.answers.removeFirst()
        }
        return try answer.jsonBytes()
    }
}
