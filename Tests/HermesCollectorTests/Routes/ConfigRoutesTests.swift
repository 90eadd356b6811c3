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

    @Test func aDeviceGetsItsOwnOverridesWithAnETagOfThemAndA304ForItOnly() async throws {
        var fixture = try CollectorFixture()
        var jz = NamespaceConfiguration(monitorList: [MonitorItem(type: "pay")])
        jz.overrides = [ConfigurationOverride(name: "qa", deviceIDs: ["qa-1"], set: ["maxItem": 7])]
        fixture.configuration.initialConfiguration = ConfigurationDocument(revision: 2, namespaces: ["JZ": jz])
        try await fixture.test { client throws in
            let qa: HTTPFields = [.hermesDeviceID: "qa-1", .hermesAppVersion: "1.0"]
            let targeted = try await client.execute(uri: HermesPath.config, method: .get, headers: qa)
            let other = try await client.execute(uri: HermesPath.config, method: .get, headers: [.hermesDeviceID: "phone-2"])
            let qaDocument = try ConfigurationDocument(jsonBytes: Array(targeted.body.readableBytesView))
            let otherDocument = try ConfigurationDocument(jsonBytes: Array(other.body.readableBytesView))
            // The QA device's document has maxItem 7 and no overrides; the other's the namespace as saved, without them
            #expect(qaDocument.namespaces["JZ"]?.maxItem == 7 && qaDocument.namespaces["JZ"]?.overrides.isEmpty == true)
            #expect(otherDocument.namespaces["JZ"]?.maxItem == 100 && otherDocument.namespaces["JZ"]?.overrides.isEmpty == true)
            #expect(String(buffer: targeted.body).contains("overrides") == false)
            let qaTag = try #require(targeted.headers[.eTag])
            #expect(qaTag.hasPrefix("\"2-") && other.headers[.eTag] == "\"2\"")
            // Each ETag gets a 304 for its own device only
            var again = qa
            again[.ifNoneMatch] = qaTag
            #expect(try await client.execute(uri: HermesPath.config, method: .get, headers: again).status == .notModified)
            let mixed = try await client.execute(uri: HermesPath.config, method: .get, headers: [.hermesDeviceID: "phone-2", .ifNoneMatch: qaTag])
            #expect(mixed.status == .ok)
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
