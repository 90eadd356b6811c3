import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

struct NamespaceIsolationTests {
    @Test func aNamespaceSwitchedOffDoesNotAffectTheOthers() async throws {
        let harness = Harness()
        var off = Harness.jz
        off.isGather = false
        let client = try harness.client(defaults: ["JZ": off, "KX": Harness.jz])
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["a": 1]).code == .notGathering)
        #expect(client.send(type: "pay", prefix: "KX", meta: ["a": 1]).isAccepted)
        #expect(client.namespace("hermes").send(type: "appLag", meta: ["a": 1]).isAccepted)
        try await client.flush()
        await client.shutdown()
        #expect(try harness.rows("meta").map { $0["namespace"] as String } == ["KX", "hermes"])
    }

    @Test func theHandleAndTheFacadeDoTheSame() async throws {
        let harness = Harness()
        let client = try harness.client()
        client.send(type: "pay", prefix: "JZ", meta: ["via": "facade"])
        client.namespace("JZ").send(type: "pay", meta: ["via": "handle"])
        try await client.flush()
        await client.shutdown()
        let metas = try harness.metas("meta")
        #expect(metas.map { $0["MONITOR_TYPE"] } == ["JZ-pay", "JZ-pay"])
        #expect(metas.map { $0["IS_BIZ"] } == [true, true])
    }

    @Test func recordsSurviveClosingAndReopeningTheClient() async throws {
        let harness = Harness()
        let first = try harness.client()
        let ids = (0..<50).compactMap { first.send(type: "appLag", meta: ["i": .int(Int64($0))]).reportID }
        try await first.flush()
        await first.shutdown()

        let second = try harness.client()
        second.start()
        second.send(type: "appBoot", meta: ["ms": 300])
        try await second.flush()
        await second.shutdown()

        let stored = try harness.rows("meta").map { $0["report_id"] as String }
        #expect(stored.count == 51)
        #expect(Array(stored.prefix(50)) == ids)
    }
}
