import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

struct EvictionTests {
    @Test func pastTheCapTheOldestHundredGoAndCrashRowsGoLast() async throws {
        // Given a namespace capped at 100 rows, holding 30 crashes among its oldest records
        let harness = Harness()
        var capped = NamespaceConfiguration.hermesDefault
        capped.maxCacheCount = 100
        let client = try harness.client(defaults: ["hermes": capped])
        for index in 0..<30 {
            client.send(type: "appCrash", meta: ["i": .int(Int64(index))], payload: Data("stack".utf8))
            harness.advanceWallClock(by: 1)
        }
        for index in 0..<100 {
            client.send(type: "appLag", meta: ["i": .int(Int64(index))])
            harness.advanceWallClock(by: 1)
        }
        try await client.flush()

        // When one more record arrives (131 > 100)
        client.send(type: "appBoot", meta: ["last": true])
        try await client.flush()
        await client.shutdown()

        // Then 100 rows were evicted: the 100 lags, oldest first; the crashes and the newest stay
        #expect(try harness.rows("payload").count == 30)
        #expect(try harness.metas("meta").map { $0["MONITOR_TYPE"] } == ["appBoot"])
        #expect(client.diagnostics().lost("hermes", .evicted) == 100)
    }

    @Test func whenOnlyCrashesAreLeftTheOldestCrashesGo() async throws {
        let harness = Harness()
        var capped = NamespaceConfiguration.hermesDefault
        capped.maxCacheCount = 100
        let client = try harness.client(defaults: ["hermes": capped])
        for index in 0..<101 {
            client.send(type: "appCrash", meta: ["i": .int(Int64(index))], payload: Data("s".utf8))
            harness.advanceWallClock(by: 1)
        }
        try await client.flush()
        await client.shutdown()
        let kept = try harness.metas("payload").map { $0["i"]?.intValue }
        #expect(kept == [100])
        #expect(client.diagnostics().lost("hermes", .evicted) == 100)
    }

    @Test func eachNamespaceHasItsOwnCap() async throws {
        let harness = Harness()
        var capped = Harness.jz
        capped.maxCacheCount = 100
        let client = try harness.client(defaults: ["JZ": capped])
        for index in 0..<150 {
            client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))])
            client.send(type: "appLag", meta: ["i": .int(Int64(index))])
        }
        try await client.flush()
        await client.shutdown()
        let namespaces = try harness.rows("meta").map { $0["namespace"] as String }
        #expect(namespaces.filter { $0 == "JZ" }.count == 50)
        #expect(namespaces.filter { $0 == "hermes" }.count == 150)
    }
}
