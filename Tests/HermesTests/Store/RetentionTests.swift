import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

struct RetentionTests {
    @Test func rowsOlderThanTheCutoffAreDeletedFromBothTablesOfTheNamedNamespacesOnly() async throws {
        let harness = Harness()
        let defaults = ["JZ": Harness.jz, "KX": Harness.jz]
        let client = try harness.client(defaults: defaults)
        client.send(type: "pay", prefix: "JZ", meta: ["age": "old"])
        client.send(type: "pay", prefix: "JZ", meta: ["age": "old"], payload: Data("p".utf8))
        client.send(type: "pay", prefix: "KX", meta: ["age": "old"])
        harness.advanceWallClock(by: 1_000)
        let cutoff = harness.now
        client.send(type: "pay", prefix: "JZ", meta: ["age": "new"])

        let deleted = try await client.deleteRecords(in: ["JZ"], createdBefore: cutoff)

        #expect(deleted == 2)
        #expect(try harness.metas("meta").map { $0["age"] } == ["old", "new"])
        #expect(try harness.rows("meta").map { $0["namespace"] as String } == ["KX", "JZ"])
        #expect(try harness.rows("payload").isEmpty)
        #expect(client.diagnostics().lost("JZ", .expired) == 2)
        #expect(try await client.writer.perform { $0.counts["JZ"] } == 1)
        await client.shutdown()
    }
}
