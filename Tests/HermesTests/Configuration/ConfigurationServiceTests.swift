import Clocks
import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

struct ConfigurationServiceTests {
    static let url = URL(string: "http://127.0.0.1:9/v1/config")!

    static func document(revision: Int, jzGathers: Bool = true, timer: Double = 5) -> [UInt8] {
        var jz = Harness.jz
        jz.isGather = jzGathers
        jz.periodicTimerSecond = timer
        return ConfigurationDocument(revision: revision, namespaces: ["hermes": .hermesDefault, "JZ": jz]).jsonBytes()
    }

    @Test func aServerDocumentIsAppliedCachedAndItsETagSentBack() async throws {
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, headers: ["ETag": "\"3\""], body: ConfigurationServiceTests.document(revision: 3, jzGathers: false))
        }
        let harness = Harness(transport: transport)
        let client = try harness.client(configURL: Self.url)
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["a": 1]).isAccepted)

        await client.refreshConfiguration()

        #expect(client.configurationRevision == 3)
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["a": 1]).code == .notGathering)
        #expect(client.send(type: "appLag", meta: ["a": 1]).isAccepted)
        await client.refreshConfiguration()
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].headers["If-None-Match"] == nil)
        #expect(transport.requests[1].headers["If-None-Match"] == "\"3\"")
        #expect(transport.requests[1].headers[HermesHeader.appKey] == "test-key")
        await client.shutdown()
        let cached = try Data(contentsOf: harness.directory.appendingPathComponent("config/1.2.0/config.json"))
        #expect(try ConfigurationDocument(jsonBytes: Array(cached)).revision == 3)
    }

    @Test func notModifiedServerErrorsAndGarbageKeepTheLastGoodConfiguration() async throws {
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, headers: ["ETag": "\"4\""], body: ConfigurationServiceTests.document(revision: 4, timer: 9))
        }
        let harness = Harness(transport: transport)
        let client = try harness.client(configURL: Self.url)
        await client.refreshConfiguration()
        #expect(client.configuration(for: "JZ")?.periodicTimerSecond == 9)

        for response in [
            TransportResponse(status: 304),
            TransportResponse(status: 500, body: Array("boom".utf8)),
            TransportResponse(status: 200, body: Array("{\"revision\": 9, \"namespaces\": [".utf8)),
            TransportResponse(status: 200, body: Array(#"{"revision":9,"namespaces":{"JZ":{"maxItem":"many"}}}"#.utf8)),
        ] {
            transport.respond { _ in response }
            await client.refreshConfiguration()
            #expect(client.configurationRevision == 4)
            #expect(client.configuration(for: "JZ")?.periodicTimerSecond == 9)
        }
        transport.respond { _ in throw URLError(.cannotConnectToHost) }
        await client.refreshConfiguration()
        #expect(client.configurationRevision == 4)
        await client.shutdown()
    }

    @Test func theServerBeatsTheCacheWhichBeatsTheDefaults() async throws {
        // Given a cached document from an earlier run, revision 5, with JZ off
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 5, jzGathers: false))
        }
        let harness = Harness(transport: transport)
        let first = try harness.client(configURL: Self.url)
        await first.refreshConfiguration()
        await first.shutdown()

        // When a new client starts with the server unreachable, the cache wins over the registered default
        transport.respond { _ in throw URLError(.notConnectedToInternet) }
        let second = try harness.client(configURL: Self.url)
        #expect(second.configurationRevision == 5)
        #expect(second.send(type: "pay", prefix: "JZ", meta: ["a": 1]).code == .notGathering)

        // And a server answer wins over the cache
        transport.respond { _ in TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 6, jzGathers: true)) }
        await second.refreshConfiguration()
        #expect(second.send(type: "pay", prefix: "JZ", meta: ["a": 1]).isAccepted)
        await second.shutdown()

        // And the cache belongs to its app version
        let upgraded = try harness.client(version: "2.0.0", configURL: Self.url)
        #expect(upgraded.configurationRevision == 0)
        await upgraded.shutdown()
    }

    @Test func outOfRangeValuesAreClamped() async throws {
        let body = Array(#"{"revision":2,"namespaces":{"JZ":{"maxItem":500,"periodicTimerSecond":0.2,"monitorList":[{"type":"pay"}]}}}"#.utf8)
        let harness = Harness(transport: InMemoryTransport { _ in TransportResponse(status: 200, body: body) })
        let client = try harness.client(configURL: Self.url)
        await client.refreshConfiguration()
        #expect(client.configuration(for: "JZ")?.maxItem == 100)
        #expect(client.configuration(for: "JZ")?.periodicTimerSecond == 1)
        await client.shutdown()
    }

    @Test func aHangingServerDelaysNeitherStartNorSend() async throws {
        let harness = Harness()
        let client = try HermesClient(configuration: harness.configuration(configURL: Self.url, transport: HangingTransport()))
        client.start()
        #expect(client.send(type: "appLag", meta: ["a": 1]).isAccepted)
        try await client.flush()
        await client.shutdown()  // cancels the hanging fetch
        #expect(try harness.rows("meta").count == 1)
    }

    @Test func theRefreshRunsAgainAfterItsInterval() async throws {
        let transport = InMemoryTransport { _ in TransportResponse(status: 304) }
        let harness = Harness(transport: transport)
        var configuration = harness.configuration(configURL: Self.url)
        configuration.configRefreshInterval = .seconds(60)
        let client = try HermesClient(configuration: configuration)
        var sent = transport.sent.makeAsyncIterator()
        client.start()
        for expected in 1...3 {
            // The test clock moves only when told: each fetch follows one interval.
            _ = await sent.next()
            #expect(transport.requests.count == expected)
            await harness.clock.advance(by: .seconds(60))
        }
        await client.shutdown()
    }
}
