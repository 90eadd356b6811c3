import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

struct EvictionTests {
    @Test func pastTheCapTheOldestHundredGoAndCrashRowsGoLast() async throws {
        // Given 30 crashes, then 100 lags, then a boot record in one namespace, in one commit
        let harness = Harness()
        let client = try harness.client()
        func record(_ type: String, _ index: Int, payload: Bool) -> PendingRecord {
            PendingRecord(
                reportID: "\(type)-\(index)", namespace: "hermes", monitorType: type, isBusiness: false,
                createdTime: 1_000 + Int64(index), appVersion: "1.2.0", meta: Array("{}".utf8),
                payload: payload ? Data("stack".utf8) : nil)
        }
        let records =
            (0..<30).map { record("appCrash", $0, payload: true) }
            + (30..<130).map { record("appLag", $0, payload: false) }
            + [record("appBoot", 130, payload: false)]

        // When the store evicts down to a cap of 100
        let evicted = try await client.writer.perform { store in
            try store.insert(records)
            return try store.evict(namespace: "hermes", limit: 100)
        }
        await client.shutdown()

        // Then the 100 lags went, oldest first, and the crashes and the newest record stayed
        #expect(evicted == 100)
        #expect(try harness.rows("payload").count == 30)
        #expect(try harness.rows("meta").map { $0["monitor_type"] as String } == ["appBoot"])
    }

    @Test func aBusinessNamespacesCrashRowsGoLastToo() async throws {
        // Given 10 JZ crashes (JZ-appCrash) then 100 payments
        let harness = Harness()
        let client = try harness.client()
        let records = (0..<110).map { index in
            PendingRecord(
                reportID: "r-\(index)", namespace: "JZ", monitorType: index < 10 ? "JZ-appCrash" : "JZ-pay", isBusiness: true,
                createdTime: 1_000 + Int64(index), appVersion: "1.2.0", meta: Array("{}".utf8), payload: nil)
        }

        // When the store evicts down to 100
        let evicted = try await client.writer.perform { store in
            try store.insert(records)
            return try store.evict(namespace: "JZ", limit: 100)
        }
        await client.shutdown()

        // Then the oldest payments went and every crash stayed
        #expect(evicted == 100)
        #expect(try harness.rows("meta").map { $0["monitor_type"] as String } == Array(repeating: "JZ-appCrash", count: 10))
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
