import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct ConfigRoutesTests {
    @Test func configIsServedWithItsRevisionAsETag() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let response = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"0\"")
            #expect(response.headers[.contentType] == "application/json")
            #expect(try ConfigurationDocument(jsonBytes: Array(response.body.readableBytesView)) == ConfigurationDocument.builtIn)
        }
    }

    @Test func matchingIfNoneMatchGets304WithoutBody() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            for value in ["\"0\"", "W/\"0\"", "\"5\", \"0\""] {
                let response = try await client.execute(uri: HermesPath.config, method: .get, headers: [.ifNoneMatch: value])
                #expect(response.status == .notModified, "If-None-Match: \(value)")
                #expect(response.headers[.eTag] == "\"0\"")
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test func staleIfNoneMatchGetsTheDocument() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let response = try await client.execute(uri: HermesPath.config, method: .get, headers: [.ifNoneMatch: "\"41\""])
            #expect(response.status == .ok)
            #expect(response.body.readableBytes > 0)
        }
    }

    @Test func savedConfigurationWinsOverTheInitialOne() async throws {
        // Given a store that already holds revision 12
        let fixture = try CollectorFixture()
        try await fixture.storage.saveConfiguration(ConfigurationDocument(revision: 12, namespaces: [:]))
        // Then the collector serves it, not the built-in revision 0
        try await fixture.test { client throws in
            let response = try await client.execute(uri: HermesPath.config, method: .get)
            #expect(response.headers[.eTag] == "\"12\"")
            #expect(try response.json() == ["revision": 12, "namespaces": [:]])
        }
    }
}
