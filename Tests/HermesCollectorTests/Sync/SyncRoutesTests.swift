import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct SyncRoutesTests {
    static let schema = SyncSchema(version: 1, types: [SyncEntityType("notes", attributes: [.init("text", .string)])])

    static func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let fixture = try CollectorFixture()
        let sync = SyncServer(storage: try SQLiteSyncStorage.inMemory(), rules: SyncRules(schema: schema))
        let app = try await buildApplication(
            configuration: fixture.configuration, storage: fixture.storage, sync: sync, logger: CollectorFixture.silentLogger
        )
        try await app.test(.router, body)
    }

    static func post(_ client: any TestClientProtocol, _ body: String, appKey: String? = CollectorFixture.appKey) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        headers[.hermesAppKey] = appKey
        return try await client.execute(uri: HermesPath.sync, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func createdRecordComesBackWithItsServerIDOldIDAndRevision() async throws {
        try await Self.test { client in
            let response = try await Self.post(client, """
                {"clientID":"ipad-1","schemaVersion":1,"maxRevision":0,"changeSets":[
                {"sequence":1,"types":["notes"],"notes":{"create":[-1],"update":[],"delete":[],"attributes":{"-1":{"text":"hi"}}}}]}
                """)
            #expect(response.status == .ok)
            #expect(response.text == """
                {"changeSets":[{"conflict":false,"notes":{"attributes":{"1":{"__oldId__":-1,"revision":1,"text":"hi"}},\
                "create":[1],"delete":[],"update":[]},"revision":1,"sequence":1,"types":["notes"]},\
                {"notes":{"attributes":{"1":{"revision":1,"text":"hi"}},"create":[1],"delete":[],"update":[]},\
                "revision":1,"types":["notes"]}],"hasMore":false,"maxRevision":1,"reset":false}
                """)
        }
    }

    @Test func requestWithoutAppKeyOrNotARequestIsRefusedAndNothingApplied() async throws {
        try await Self.test { client in
            #expect(try await Self.post(client, #"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#, appKey: nil).status == .unauthorized)
            #expect(try await Self.post(client, #"{"clientID":"a","maxRevision":0,"changeSets":[]}"#).status == .badRequest)
            #expect(try await Self.post(client, #"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[{"types":[]}]}"#).status == .badRequest)
            let empty = try await Self.post(client, #"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#)
            #expect(empty.text == #"{"changeSets":[],"hasMore":false,"maxRevision":0,"reset":false}"#)
        }
    }
}
