import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct AdminRoutesTests {
    static let shopPath = "/v1/admin/namespaces/shop/config"

    @Test(arguments: [nil, "wrong-token"])
    func namespaceChangeWithoutTheAdminTokenIsRefused(token: String?) async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let response = try await client.admin(Self.shopPath, method: .put, token: token, body: #"{"maxItem":50}"#)
            #expect(response.status == .unauthorized)
            #expect(
                try response.json() == [
                    "error": "unauthorized",
                    "reason": "this endpoint needs a token with the configure scope: Authorization: Bearer <token>",
                    "scope": "request",
                ])
            let config = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(config.headers[.eTag] == "\"0\"")
        }
        #expect(try await fixture.storage.loadConfiguration() == nil)
    }

    @Test func namespaceChangeBumpsTheRevisionAndIsServed() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            // When an admin sets the shop namespace with one value out of range
            let response = try await client.admin(Self.shopPath, method: .put, body: #"{"maxItem":500,"flushCount":20}"#)
            // Then the change is acknowledged with the clamping it needed
            #expect(response.status == .ok)
            let json = try response.json()
            #expect(json["namespace"] == "shop")
            #expect(json["revision"] == 1)
            #expect(json["adjustments"] == [["field": "maxItem", "original": 500.0, "adjusted": 100.0]])
            #expect(json["configuration"]?["flushCount"] == 20)
            // And the next config fetch serves revision 1 with the clamped namespace
            let config = try await client.execute(uri: HermesPath.config, method: .get, headers: [.ifNoneMatch: "\"0\""])
            #expect(config.status == .ok)
            #expect(config.headers[.eTag] == "\"1\"")
            let document = try ConfigurationDocument(jsonBytes: Array(config.body.readableBytesView))
            #expect(document.namespaces["shop"]?.maxItem == 100)
            #expect(document.namespaces["shop"]?.flushCount == 20)
            #expect(document.namespaces["hermes"] == .hermesDefault)
        }
        #expect(try await fixture.storage.loadConfiguration()?.revision == 1)
    }

    @Test func namespaceChangeSurvivesARestart() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            _ = try await client.admin(Self.shopPath, method: .put, body: #"{"maxItem":10}"#)
        }
        // A new collector over the same store serves the change
        try await fixture.test { client throws in
            let config = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(config.headers[.eTag] == "\"1\"")
            #expect(try config.json()["namespaces"]?["shop"]?["maxItem"] == 10)
        }
    }

    @Test func aNamespaceNameOutsideTheConsolesRuleIsRefused() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            // The console's rule: 1 to 64 ASCII letters, digits, '-', '_' or '.'
            for bad in ["two%20words", "caf%C3%A9", "a%00b", String(repeating: "n", count: 65), "semi;colon"] {
                let response = try await client.admin("/v1/admin/namespaces/\(bad)/config", method: .put, body: #"{"maxItem":10}"#)
                #expect(response.status == .badRequest, "\(bad)")
                #expect(try response.json()["error"] == "invalidQuery", "\(bad)")
                #expect(try await client.admin("/v1/admin/namespaces/\(bad)/config", method: .delete).status == .badRequest, "\(bad)")
            }
            let good = try await client.admin("/v1/admin/namespaces/a.b-c_D9/config", method: .put, body: #"{"maxItem":10}"#)
            #expect(good.status == .ok)
            let config = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(try config.json()["namespaces"]?["a.b-c_D9"]?["maxItem"] == 10)
        }
    }

    @Test func malformedNamespaceConfigurationIsRefusedWithReason() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let notJSON = try await client.admin(Self.shopPath, method: .put, body: "{maxItem: 5")
            #expect(notJSON.status == .badRequest)
            #expect(try notJSON.json()["error"] == "malformedConfiguration")

            let wrongType = try await client.admin(Self.shopPath, method: .put, body: #"{"maxItem":"many"}"#)
            #expect(wrongType.status == .badRequest)
            #expect(
                try wrongType.json() == [
                    "error": "malformedConfiguration",
                    "reason": "configuration: namespaces.shop.maxItem must be a number",
                    "scope": "request",
                ])
            let config = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(config.headers[.eTag] == "\"0\"")
        }
    }

    @Test func deletingANamespaceBumpsTheRevisionAndUnknownOnesAre404() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            _ = try await client.admin(Self.shopPath, method: .put, body: "{}")
            let deleted = try await client.admin(Self.shopPath, method: .delete)
            #expect(deleted.status == .ok)
            #expect(try deleted.json() == ["namespace": "shop", "revision": 2])

            let again = try await client.admin(Self.shopPath, method: .delete)
            #expect(again.status == .notFound)
            #expect(try again.json() == ["error": "namespaceNotFound", "reason": "there is no namespace named shop", "scope": "request"])

            let unauthorized = try await client.admin("/v1/admin/namespaces/hermes/config", method: .delete, token: nil)
            #expect(unauthorized.status == .unauthorized)

            let config = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(config.headers[.eTag] == "\"2\"")
            #expect(try config.json()["namespaces"]?["shop"] == nil)
            #expect(try config.json()["namespaces"]?["hermes"] != nil)
        }
    }
}
