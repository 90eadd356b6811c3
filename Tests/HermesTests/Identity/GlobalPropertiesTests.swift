import Foundation
@testable import Hermes
import HermesWire
import Testing

/// Global properties per client and per namespace, under the caller's meta.
struct GlobalPropertiesTests {
    @Test func callerKeysWinOverNamespacePropertiesWhichWinOverTheClients() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.identify(userID: "u-1")
        try client.register(["plan": "free", "theme": "dark", "a": 1])
        try client.register(["plan": "jz-plan"], namespace: "JZ")
        // names of common fields never move, whatever the properties say
        try client.register(["USER_ID": "forged", "REPORT_ID": "forged", "NAMESPACE": "KX"])

        let jz = client.send(type: "pay", prefix: "JZ", meta: ["a": 2])
        client.send(type: "appLag", meta: ["b": 1])
        try await client.flush()
        await client.shutdown()

        let metas = try harness.metas("meta")
        #expect(metas[0]["plan"] == "jz-plan" && metas[0]["theme"] == "dark" && metas[0]["a"] == 2)
        #expect(metas[0]["USER_ID"] == "u-1" && metas[0]["REPORT_ID"] == .string(jz.reportID ?? "") && metas[0]["NAMESPACE"] == "JZ")
        #expect(metas[1]["plan"] == "free" && metas[1]["a"] == 1 && metas[1]["b"] == 1)
    }

    @Test func unregisteredPropertiesAreNoLongerAdded() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        try client.register(["plan": "free", "theme": "dark"])
        try client.register(["region": "eu"], namespace: "JZ")
        client.unregister(["plan"])
        client.unregister(["region"], namespace: "JZ")
        client.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        try await client.flush()
        await client.shutdown()

        let meta = try #require(try harness.metas("meta").first)
        #expect(meta["plan"] == nil && meta["region"] == nil && meta["theme"] == "dark")
    }

    @Test func aPropertyJSONCannotHoldIsRejectedAndNothingIsRegistered() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        #expect(throws: HermesError.self) { try client.register(["ok": 1, "bad": .double(.nan)]) }
        client.send(type: "appLag", meta: ["a": 1])
        try await client.flush()
        await client.shutdown()
        #expect(try harness.metas("meta").first?["ok"] == nil)
    }
}
