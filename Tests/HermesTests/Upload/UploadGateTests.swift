import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// The gates of specification §6.1: `isUpload`, reachability, the cellular traffic window, `onlyWifi`.
struct UploadGateTests {
    /// JZ on cellular with a 2 KiB daily quota and 2-record batches: a few requests use it up.
    static let meteredJZ: NamespaceConfiguration = {
        var configuration = Harness.jz
        configuration.maxFlowMByte = 2_048 / 1_048_576
        configuration.maxItem = 2
        return configuration
    }()

    static func sendPayments(_ client: HermesClient, count: Int) async throws {
        for index in 0..<count { client.send(type: "pay", prefix: "JZ", meta: ["amount": .int(Int64(index))]) }
        try await client.flush()
    }

    static func trafficWindow(_ client: HermesClient) async throws -> TrafficWindow? {
        try await client.writer.perform { try $0.trafficWindow("JZ") }
    }

    @Test func uploadDisabledSendsNothingAndKeepsTheRows() async throws {
        // Given a namespace with isUpload off holding 3 records
        let harness = Harness()
        let collector = FakeCollector()
        var jz = Harness.jz
        jz.isUpload = false
        let client = try harness.quietClient(jz: jz, transport: collector.transport)
        client.start()
        try await Self.sendPayments(client, count: 3)

        // When upload() is called
        let summary = await client.upload()["JZ"]
        let inFlight = try await harness.rowsInFlight(client)
        await client.shutdown()

        // Then nothing is sent and the rows stay pending
        #expect(summary?.outcome == .uploadDisabled)
        #expect(summary?.requests == 0)
        #expect(collector.requests.isEmpty)
        #expect(try harness.rows("meta").count == 3)
        #expect(inFlight == 0)
    }

    @Test func unreachableNetworkSendsNothingAndKeepsTheRows() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(transport: collector.transport, network: StaticNetworkMonitor(.unreachable))
        client.start()
        try await Self.sendPayments(client, count: 2)

        let summaries = await client.upload()
        await client.shutdown()

        #expect(summaries.mapValues(\.outcome) == ["hermes": .offline, "JZ": .offline])
        #expect(collector.requests.isEmpty)
        #expect(try harness.rows("meta").count == 2)
    }

    @Test func meteredSendsUntilTheWindowReachesMaxFlowMByte() async throws {
        // Given 40 records on cellular with a 2 KiB quota
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.quietClient(jz: Self.meteredJZ, transport: collector.transport, network: StaticNetworkMonitor(.metered))
        client.start()
        try await Self.sendPayments(client, count: 40)

        // When upload() is called
        let summary = try #require(await client.upload()["JZ"])
        let window = try await Self.trafficWindow(client)
        await client.shutdown()

        // Then requests go out until their bytes reach the quota, and not one more
        let bodies = collector.transport.requests.map(\.body.count)
        let limit = Self.meteredJZ.maxFlowBytes
        #expect(summary.outcome == .quotaExceeded)
        #expect(bodies.dropLast().reduce(0, +) < limit)
        #expect(bodies.reduce(0, +) >= limit)
        #expect(window == TrafficWindow(start: harness.now, usedBytes: bodies.reduce(0, +)))
        #expect(summary.bytesSent == bodies.reduce(0, +))
        #expect(summary.recordsSent == 2 * bodies.count)
        #expect(try harness.rows("meta").count == 40 - 2 * bodies.count)
    }

    @Test func meteredBytesCountEvenWhenTheRequestFails() async throws {
        // Given a collector failing with 500, on cellular
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { _, _ in TransportResponse(status: 500) } }
        let client = try harness.quietClient(jz: Self.meteredJZ, transport: collector.transport, network: StaticNetworkMonitor(.metered))
        client.start()
        try await Self.sendPayments(client, count: 4)

        // When upload() is called
        let summary = await client.upload()["JZ"]
        let window = try await Self.trafficWindow(client)
        let inFlight = try await harness.rowsInFlight(client)
        await client.shutdown()

        // Then the failed request's bytes are in the window, and its records are still pending
        let bodies = collector.transport.requests.map(\.body.count)
        #expect(summary?.outcome == .retryLater(reason: "HTTP 500: "))
        #expect(bodies.count == 1)
        #expect(window?.usedBytes == bodies.first)
        #expect(try harness.rows("meta").count == 4)
        #expect(inFlight == 0)
    }

    @Test func theTrafficWindowIsPersistedAndRollsOverAfter24Hours() async throws {
        // Given a quota used up by a client that then shuts down
        let harness = Harness()
        let firstCollector = FakeCollector()
        let first = try harness.quietClient(jz: Self.meteredJZ, transport: firstCollector.transport, network: StaticNetworkMonitor(.metered))
        first.start()
        try await Self.sendPayments(first, count: 40)
        let used = await first.upload()["JZ"]
        await first.shutdown()

        // When a new client on the same folder uploads at once, 1 ms before 24 h, and at 24 h
        let collector = FakeCollector()
        let client = try harness.quietClient(jz: Self.meteredJZ, transport: collector.transport, network: StaticNetworkMonitor(.metered))
        client.start()
        let atOnce = await client.upload()["JZ"]
        harness.advanceWallClock(by: TrafficWindow.length - 1)
        let justBefore = await client.upload()["JZ"]
        harness.advanceWallClock(by: 1)
        let after = await client.upload()["JZ"]
        let window = try await Self.trafficWindow(client)
        await client.shutdown()

        // Then the window holds until 24 h have passed, then starts afresh
        #expect(used?.outcome == .quotaExceeded)
        #expect(atOnce?.outcome == .quotaExceeded && atOnce?.requests == 0)
        #expect(justBefore?.outcome == .quotaExceeded && justBefore?.requests == 0)
        #expect(after?.outcome == .quotaExceeded)
        #expect((after?.requests ?? 0) > 0)
        #expect(window?.start == harness.now)
        #expect(window?.usedBytes == after?.bytesSent)
        #expect(collector.requests.count == after?.requests)
    }

    @Test func onlyWifiTypesWaitForAnUnmeteredNetwork() async throws {
        // Given JZ records of a Wi-Fi-only type and of another type, on cellular
        let harness = Harness()
        let collector = FakeCollector()
        let network = ManualNetworkMonitor(.metered)
        let jz = NamespaceConfiguration(monitorList: [MonitorItem(type: "pay"), MonitorItem(type: "view", onlyWifi: true)])
        let client = try harness.quietClient(jz: jz, transport: collector.transport, network: network)
        client.start()
        for index in 0..<2 {
            client.send(type: "view", prefix: "JZ", meta: ["screen": .int(Int64(index))])
            client.send(type: "pay", prefix: "JZ", meta: ["amount": .int(Int64(index))])
        }
        try await client.flush()

        // When upload() is called on cellular, then on Wi-Fi
        let metered = await client.upload()["JZ"]
        let typesOnCellular = collector.requests.flatMap(\.monitorTypes)
        network.set(.unmetered)
        let unmetered = await client.upload()["JZ"]
        await client.shutdown()

        // Then cellular carries only the other type; Wi-Fi carries the rest
        #expect(metered?.recordsSent == 2 && metered?.outcome == .completed)
        #expect(typesOnCellular == ["JZ-pay", "JZ-pay"])
        #expect(unmetered?.recordsSent == 2)
        #expect(collector.requests.flatMap(\.monitorTypes).dropFirst(2) == ["JZ-view", "JZ-view"])
        #expect(try harness.rows("meta").isEmpty)
    }
}
