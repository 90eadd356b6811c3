import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

/// Record hooks change or drop a record before it is checked and stored.
struct RecordHookTests {
    @Test func aHookScrubsAFieldBeforeItIsStored() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.addRecordHook { record in
            record.meta["email"] = nil
            record.meta["scrubbed"] = true
            return true
        }
        client.send(type: "pay", prefix: "JZ", meta: ["email": "a@example.com", "amount": 3])
        try await client.flush()
        await client.shutdown()

        let stored = try #require(try harness.rows("meta").first)
        #expect(!(stored["meta"] as String).contains("a@example.com"))
        let meta = try JSONValue(parsing: Array((stored["meta"] as String).utf8))
        #expect(meta["scrubbed"] == true && meta["amount"] == 3)
    }

    @Test func aDroppedRecordIsRejectedNeverStoredAndNotCountedAsLost() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.addRecordHook { $0.type != "view" }
        let dropped = client.send(type: "view", prefix: "JZ", meta: ["a": 1])
        let kept = client.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        try await client.flush()
        await client.shutdown()

        #expect(dropped.code == .droppedByHook && kept.isAccepted)
        #expect(try harness.rows("meta").map { $0["monitor_type"] as String } == ["JZ-pay"])
        #expect(client.diagnostics().losses.isEmpty)
    }

    @Test func namespaceHooksRunAfterTheClientsAndOnlyForTheirNamespace() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.addRecordHook {
            $0.meta["trail"] = "client"; return true
        }
        client.addRecordHook(namespace: "JZ") { record in
            record.meta["trail"] = .string((record.meta["trail"]?.stringValue ?? "") + ",JZ")
            return true
        }
        client.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        client.send(type: "appLag", meta: ["a": 1])
        try await client.flush()
        await client.shutdown()

        #expect(try harness.metas("meta").map { $0["trail"] } == ["client,JZ", "client"])
    }

    @Test func aHookThatEmptiesTheMetaGetsTheUsualError() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.addRecordHook {
            $0.meta = [:]; return true
        }
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["a": 1]).code == .emptyMeta)
        await client.shutdown()
    }
}
