import Foundation
@testable import Hermes
import HermesCollector
import HermesWire
import Testing

/// `sdkHealth` records as the real collector stores them.
extension EndToEndTests {
    @Test func theCollectorStoresEachHealthRecordWithTheLossesSinceThePrevious() async throws {
        // Given a started client of the real collector whose first health record was uploaded
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port, healthInterval: .seconds(3_600))
        var reports = try #require(client.health).events.makeAsyncIterator()
        client.start()
        let first = await reports.next()
        try await client.flush()
        await client.upload()

        // When three records are erased from the store and the next health record is made
        for index in 0..<3 { client.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        try await client.deleteLocalData()
        await client.reportHealth()
        try await client.flush()
        await client.upload()
        await client.shutdown()

        // Then the collector holds both, with their common fields, the second with the erasures
        let events = try await loopback.storage.events(EventQuery(namespace: "hermes", monitorType: MonitorType.sdkHealth))
        try await server.shutdown()
        #expect(first??.isAccepted == true)
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.meta["APP_VERSION"] == "1.0.0" && $0.meta["queueDepth"] == 0 })
        #expect(Set(events.map { $0.meta["lost"] }) == [.object([:]), ["erased": 3]])
        #expect(Set(events.map { $0.meta["lostTotal"] }) == [0, 3])
    }
}
