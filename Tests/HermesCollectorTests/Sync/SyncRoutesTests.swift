import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct SyncRoutesTests {
    static let schema = SyncSchema(version: 1, types: [SyncEntityType("notes", attributes: [.init("text", .string)])])

    static func test<T: Sendable>(
        metrics: CollectorMetrics = CollectorMetrics(), _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let fixture = try CollectorFixture()
        let sync = SyncServer(storage: try SQLiteSyncStorage.inMemory(), rules: SyncRules(schema: schema))
        let app = try await buildApplication(
            configuration: fixture.configuration, storage: fixture.storage, sync: sync, metrics: metrics, logger: CollectorFixture.silentLogger
        )
        return try await app.test(.router, body)
    }

    static func post(_ client: any TestClientProtocol, _ body: String, appKey: String? = CollectorFixture.appKey) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        headers[.hermesAppKey] = appKey
        return try await client.execute(uri: HermesPath.sync, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func createdRecordComesBackWithItsServerIDOldIDAndRevisionOnce() async throws {
        try await Self.test { client in
            // Given another device's note at revision 1
            let other = try await Self.post(
                client,
                """
                {"clientID":"ipad-2","schemaVersion":1,"maxRevision":0,"changeSets":[
                {"sequence":1,"types":["notes"],"notes":{"create":[-1],"update":[],"delete":[],"attributes":{"-1":{"text":"theirs"}}}}]}
                """)
            #expect(other.status == .ok)
            // When a device at revision 0 pushes a note of its own
            let response = try await Self.post(
                client,
                """
                {"clientID":"ipad-1","schemaVersion":1,"maxRevision":0,"changeSets":[
                {"sequence":1,"types":["notes"],"notes":{"create":[-1],"update":[],"delete":[],"attributes":{"-1":{"text":"hi"}}}}]}
                """)
            // Then its note comes back once, as the outcome (server id, old id, revision 2), and
            // the missed change sets hold only the other device's revision 1, not an echo of 2
            #expect(response.status == .ok)
            #expect(
                response.text == """
                    {"changeSets":[{"conflict":false,"notes":{"attributes":{"2":{"__oldId__":-1,"revision":2,"text":"hi"}},\
                    "create":[2],"delete":[],"update":[]},"revision":2,"sequence":1,"types":["notes"]},\
                    {"notes":{"attributes":{"1":{"revision":1,"text":"theirs"}},"create":[1],"delete":[],"update":[]},\
                    "revision":1,"types":["notes"]}],"hasMore":false,"maxRevision":2,"reset":false}
                    """)
        }
    }

    @Test func requestWithoutAppKeyOrNotARequestIsRefusedAndNothingApplied() async throws {
        try await Self.test { client in
            #expect(
                try await Self.post(client, #"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#, appKey: nil).status
                    == .unauthorized)
            #expect(try await Self.post(client, #"{"clientID":"a","maxRevision":0,"changeSets":[]}"#).status == .badRequest)
            #expect(
                try await Self.post(client, #"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[{"types":[]}]}"#).status == .badRequest)
            let empty = try await Self.post(client, #"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#)
            #expect(empty.text == #"{"changeSets":[],"hasMore":false,"maxRevision":0,"reset":false}"#)
        }
    }

    @Test func metricsCountRequestsAppliedChangeSetsConflictsByReasonAndRecordsSent() async throws {
        let metrics = CollectorMetrics()
        let text = try await Self.test(metrics: metrics) { client in
            // Given a device creating two notes, then updating one from a stale revision, and a
            // second device catching up
            _ = try await Self.post(
                client,
                """
                {"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[
                {"sequence":1,"types":["notes"],"notes":{"create":[-1,-2],"update":[],"delete":[],"attributes":{"-1":{"text":"x"},"-2":{"text":"y"}}}}]}
                """)
            _ = try await Self.post(
                client,
                """
                {"clientID":"a","schemaVersion":1,"maxRevision":1,"changeSets":[
                {"sequence":2,"types":["notes"],"notes":{"create":[],"update":[1],"delete":[],"attributes":{"1":{"text":"z","revision":0}}}}]}
                """)
            _ = try await Self.post(client, #"{"clientID":"b","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#)
            return try await client.execute(uri: "/metrics", method: .get).text
        }
        // Then the sync counters say so, and the sync histogram counted three answers
        let samples = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        #expect(
            samples.isSuperset(of: [
                "hermes_collector_sync_requests_total 3",
                "hermes_collector_sync_change_sets_applied_total 1",
                "hermes_collector_sync_conflicts_total{reason=\"stale\"} 1",
                // b's two notes: a's own notes do not come back to it among the missed
                "hermes_collector_sync_records_sent_total 2",
                "hermes_collector_sync_duration_seconds_count 3",
            ]))
        #expect(metrics.snapshot.syncConflicts == ["stale": 1])
    }
}
