import Foundation
@testable import Hermes
import HermesCollector
import HermesWire
import Testing

/// The socket transport between the real SDK and the real collector.
extension EndToEndTests {
    @Test func theSocketTransportDeliversEveryRecordOverKeptAliveConnections() async throws {
        // Given a client of the real collector that sends over SocketHTTPTransport
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port, transport: SocketHTTPTransport())
        client.start()
        await client.refreshConfiguration()

        // When it stores 250 records and uploads them (three requests)
        var sent: Set<String> = []
        for index in 0..<250 {
            sent.insert(try #require(client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]).reportID))
        }
        try await client.flush()
        let summary = await client.upload()["JZ"]
        await client.shutdown()

        // Then the collector stored each record once
        #expect(summary?.outcome == .completed)
        #expect(summary?.recordsSent == 250)
        #expect((summary?.requests ?? 0) >= 3)
        let stored = try await loopback.storedIDs("JZ")
        #expect(stored.count == 250)
        #expect(Set(stored) == sent)
        try await server.shutdown()
    }
}
