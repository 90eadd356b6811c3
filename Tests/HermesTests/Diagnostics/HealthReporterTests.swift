import Clocks
import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// The `sdkHealth` records a started client sends into `hermes`, read as the collector
/// receives them: losses since the previous stored record, queue depth, period.
struct HealthReporterTests {
    static let interval = Duration.seconds(600)
    static let configURL = URL(string: "http://127.0.0.1:9/v1/config")!

    /// JZ keeps 100 rows at most and never uploads, so its rows are the queue depth.
    static let cappedJZ: NamespaceConfiguration = {
        var configuration = Harness.jz
        configuration.maxCacheCount = 100
        configuration.isUpload = false
        return configuration
    }()

    /// 150 JZ records, stored: the store evicts the oldest 100 of every 200 rows.
    static func overfill(_ client: HermesClient) async throws {
        for index in 0..<150 { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]) }
        try await client.flush()
    }

    /// The health fields of the `sdkHealth` records in `metas`, with their common `APP_VERSION`.
    static func health(_ metas: [JSONValue]) -> [JSONValue] {
        metas.filter { $0["MONITOR_TYPE"] == .string(MonitorType.sdkHealth) }.map { meta in
            .object(
                ["APP_VERSION", "lost", "lostTotal", "queueDepth", "periodMs"].reduce(into: [:]) { fields, key in fields[key] = meta[key] })
        }
    }

    static func health(_ collector: FakeCollector) -> [JSONValue] {
        health(collector.requests.filter { $0.namespace == "hermes" }.flatMap(\.metas))
    }

    @Test func aClientReportsItsLossesAtStartThenOnlyTheLossesOfEachInterval() async throws {
        // Given a client that evicted 100 JZ records before it started
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(
            defaults: ["hermes": Harness.quietHermes, "JZ": Self.cappedJZ], transport: collector.transport, healthInterval: Self.interval)
        try await Self.overfill(client)
        var events = try #require(client.health).events.makeAsyncIterator()

        // When it starts and uploads
        client.start()
        let first = await events.next()
        try await client.flush()
        await client.upload()
        // and evicts 100 more before the interval has passed
        try await Self.overfill(client)
        await harness.clock.advance(by: Self.interval)
        let second = await events.next()
        try await client.flush()
        await client.upload()
        await client.shutdown()

        // Then the collector has one record per report, each with the losses since the one before
        #expect(first??.isAccepted == true && second??.isAccepted == true)
        #expect(client.diagnostics().lost("JZ", .evicted) == 200)
        #expect(
            Self.health(collector) == [
                ["APP_VERSION": "1.2.0", "lost": ["evicted": 100], "lostTotal": 100, "queueDepth": 50, "periodMs": 0],
                ["APP_VERSION": "1.2.0", "lost": ["evicted": 100], "lostTotal": 100, "queueDepth": 100, "periodMs": 600_000],
            ])
        // and nothing was lost since the last, so shutdown stored no other
        #expect(try Self.health(harness.metas("meta")).isEmpty)
    }

    @Test func aTypeLeftOutOfTheMonitorListSendsNothingAndKeepsTheLossesForLater() async throws {
        // Given a client whose hermes monitorList leaves sdkHealth out, which evicted 100 records,
        // and a server about to publish a list that has it
        let harness = Harness()
        let collector = FakeCollector()
        var unmonitored = Harness.quietHermes
        unmonitored.monitorList.removeAll { $0.type == MonitorType.sdkHealth }
        let document = ConfigurationDocument(revision: 2, namespaces: ["hermes": Harness.quietHermes, "JZ": Self.cappedJZ]).jsonBytes()
        let published = Locked(false)
        let transport = InMemoryTransport { request in
            guard request.method == "GET" else { return try await collector.transport.send(request) }
            return published.withLock { $0 }
                ? TransportResponse(status: 200, headers: ["ETag": "\"2\""], body: document) : TransportResponse(status: 304)
        }
        let client = try harness.client(
            defaults: ["hermes": unmonitored, "JZ": Self.cappedJZ], configURL: Self.configURL, transport: transport,
            healthInterval: Self.interval)
        try await Self.overfill(client)
        var events = try #require(client.health).events.makeAsyncIterator()

        // When it starts, its first report finds the type left out
        client.start()
        let first = await events.next()
        try await client.flush()
        await client.upload()
        let before = Self.health(collector)
        // and the server's list, applied, has it by the next interval
        published.withLock { $0 = true }
        await client.refreshConfiguration()
        await harness.clock.advance(by: Self.interval)
        let second = await events.next()
        try await client.flush()
        await client.upload()
        await client.shutdown()

        // Then nothing was sent at start, and the next record carries the losses from before it
        #expect(first.map { $0 == nil } == true)
        #expect(before.isEmpty)
        #expect(second??.isAccepted == true)
        #expect(
            Self.health(collector) == [
                ["APP_VERSION": "1.2.0", "lost": ["evicted": 100], "lostTotal": 100, "queueDepth": 50, "periodMs": 600_000]
            ])
    }

    @Test func shutdownStoresTheLossesSinceTheLastRecord() async throws {
        // Given a started client whose first health record reported 100 evictions
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(
            defaults: ["hermes": Harness.quietHermes, "JZ": Self.cappedJZ], transport: collector.transport, healthInterval: Self.interval)
        try await Self.overfill(client)
        var events = try #require(client.health).events.makeAsyncIterator()
        client.start()
        let first = await events.next()

        // When it evicts 100 more and shuts down before the interval has passed
        try await Self.overfill(client)
        await client.shutdown()

        // Then the store holds both records, the last with only the new losses
        #expect(first??.isAccepted == true)
        #expect(
            try Self.health(harness.metas("meta")) == [
                ["APP_VERSION": "1.2.0", "lost": ["evicted": 100], "lostTotal": 100, "queueDepth": 50, "periodMs": 0],
                ["APP_VERSION": "1.2.0", "lost": ["evicted": 100], "lostTotal": 100, "queueDepth": 101, "periodMs": 0],
            ])
    }

    @Test(arguments: [nil, Duration.zero])
    func noIntervalSendsNoHealthRecord(_ interval: Duration?) async throws {
        // Given a client with health records off, which evicted 100 records
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(
            defaults: ["hermes": Harness.quietHermes, "JZ": Self.cappedJZ], transport: collector.transport, healthInterval: interval)
        try await Self.overfill(client)

        // When it starts, uploads and shuts down
        client.start()
        try await client.flush()
        await client.upload()
        await client.shutdown()

        // Then no health record was sent or stored
        #expect(client.health == nil)
        #expect(collector.requests.allSatisfy { !$0.monitorTypes.contains(MonitorType.sdkHealth) })
        #expect(try Self.health(harness.metas("meta")).isEmpty)
    }
}
