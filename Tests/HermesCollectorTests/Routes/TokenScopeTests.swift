@testable import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Bearer tokens with scopes beside the admin token: each opens what its scopes allow, and
/// several are valid at once.
struct TokenScopeTests {
    @Test func eachTokenOpensWhatItsScopesAllow() async throws {
        var fixture = try CollectorFixture()
        fixture.configuration.tokens = ["reader": [.read], "editor": [.configure], "old-ops": [.admin], "new-ops": [.admin]]
        try await fixture.test { client throws in
            func status(_ path: String, _ method: HTTPRequest.Method, token: String, body: String? = nil) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: path, method: method, headers: [.authorization: "Bearer \(token)"], body: body.map { ByteBuffer(string: $0) }
                ).status
            }
            let config = "/v1/admin/namespaces/JZ/config"
            #expect(try await status(HermesPath.events, .get, token: "reader") == .ok)
            #expect(try await status(config, .put, token: "reader", body: "{}") == .unauthorized)
            #expect(try await status("/v1/admin/users/ann", .delete, token: "reader") == .unauthorized)
            #expect(try await status(HermesPath.events, .get, token: "editor") == .unauthorized)
            #expect(try await status(config, .put, token: "editor", body: "{}") == .ok)
            #expect(try await status("/v1/admin/users/ann", .delete, token: "editor") == .unauthorized)
            // Two admin tokens at once: the old one still works while the new one is rolled out
            for token in ["old-ops", "new-ops", CollectorFixture.adminToken] {
                #expect(try await status(HermesPath.events, .get, token: token) == .ok)
                #expect(try await status("/v1/admin/users/ann", .delete, token: token) == .ok)
            }
            #expect(try await status(HermesPath.events, .get, token: "nobody") == .unauthorized)
        }
    }

    @Test func anIngestTokenUploadsAsAnAppKeyAndIsStoredByItsIDOnly() async throws {
        var fixture = try CollectorFixture()
        fixture.configuration.tokens = ["backend-job": [.ingest], "reader": [.read]]
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let body = try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("from-backend")]))
        try await fixture.test { client throws in
            func upload(_ token: String, appKey: String? = nil) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [.hermesNamespace: CollectorFixture.namespace, .authorization: "Bearer \(token)"]
                headers[.hermesAppKey] = appKey
                return try await client.execute(uri: HermesPath.upload(.meta), method: .post, headers: headers, body: ByteBuffer(bytes: body)).status
            }
            // A token of another scope, a wrong app key beside a good token, and the token for reading: refused
            #expect(try await upload("reader") == .unauthorized)
            #expect(try await upload("backend-job", appKey: "not-a-key") == .unauthorized)
            #expect(try await client.admin(HermesPath.events, method: .get, token: "backend-job").status == .unauthorized)
            // The ingest token alone: stored
            #expect(try await upload("backend-job") == .ok)
        }
        let stored = try await fixture.storedEvents()
        #expect(stored.map(\.reportID) == ["from-backend"])
        #expect(stored.first?.appKeyID == AppKeyID.of("backend-job"))
    }
}
