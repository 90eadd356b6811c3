import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// `/v1/admin/sync/devices` and `POST /v1/sync` with a device credential, over HTTP.
struct SyncDeviceRoutesTests {
    static let schema = SyncSchema(
        version: 1,
        types: [
            SyncEntityType("notes", attributes: [.init("text", .string), .init("owner", .string)], owner: "owner", read: [.owner], write: [.owner])
        ])

    static func admin(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String = "") async throws -> TestResponse
    {
        try await client.execute(
            uri: uri, method: method, headers: [.authorization: "Bearer \(CollectorFixture.adminToken)"], body: ByteBuffer(string: body))
    }

    static func sync(_ client: any TestClientProtocol, clientID: String, credential: String?, note: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.hermesAppKey: CollectorFixture.appKey]
        headers[.authorization] = credential.map { "Bearer \($0)" }
        let changeSets =
            note.map {
                #"[{"sequence":1,"types":["notes"],"notes":{"create":[-1],"update":[],"delete":[],"attributes":{"-1":{"text":"hi","owner":"\#($0)"}}}}]"#
            } ?? "[]"
        let body = #"{"clientID":"\#(clientID)","schemaVersion":1,"maxRevision":0,"changeSets":\#(changeSets)}"#
        return try await client.execute(uri: HermesPath.sync, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func anIssuedCredentialSyncsItsDeviceOnlyUntilRevoked() async throws {
        let fixture = try CollectorFixture()
        let sync = SyncServer(storage: try SQLiteSyncStorage.inMemory(), rules: SyncRules(schema: Self.schema))
        let app = try await buildApplication(
            configuration: fixture.configuration, storage: fixture.storage, sync: sync, logger: CollectorFixture.silentLogger)
        try await app.test(.router) { client in
            // Given a credential issued through the admin API (the app key cannot issue one)
            let body = #"{"clientID":"ipad-7","user":"alice","roles":["editor","editor"]}"#
            #expect(
                try await client.execute(uri: "/v1/admin/sync/devices", method: .post, headers: [.hermesAppKey: CollectorFixture.appKey]).status
                    == .unauthorized)
            let issued = try await Self.admin(client, .post, "/v1/admin/sync/devices", body)
            #expect(issued.status == .created)
            let fields = try JSONValue(parsing: Array(buffer: issued.body))
            let credential = try #require(fields["credential"]?.stringValue)
            #expect(credential.hasPrefix("hsd_") && fields["roles"] == .array(["editor"]))
            #expect(try await Self.admin(client, .post, "/v1/admin/sync/devices", body).status == .preconditionFailed)
            // When the device syncs with it, its note is applied; without it, or another client id with it, 401
            let applied = try await Self.sync(client, clientID: "ipad-7", credential: credential, note: "alice")
            #expect(applied.status == .ok)
            #expect(try SyncAnswer(jsonBytes: Array(buffer: applied.body)).outcomes.first?.conflict == false)
            #expect(try await Self.sync(client, clientID: "ipad-7", credential: nil).status == .unauthorized)
            #expect(try await Self.sync(client, clientID: "ipad-8", credential: credential).status == .unauthorized)
            // The listing shows it without its secret
            let listed = try await Self.admin(client, .get, "/v1/admin/sync/devices")
            #expect(String(buffer: listed.body).contains(#""clientID":"ipad-7""#) && !String(buffer: listed.body).contains("hsd_"))
            // Then, revoked, it is refused; revoking again is 404
            #expect(try await Self.admin(client, .delete, "/v1/admin/sync/devices/ipad-7").status == .ok)
            #expect(try await Self.sync(client, clientID: "ipad-7", credential: credential).status == .unauthorized)
            #expect(try await Self.admin(client, .delete, "/v1/admin/sync/devices/ipad-7").status == .notFound)
        }
    }
}
