import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

struct HousekeepingTests {
    /// Runs a first client that stores `body`'s records, then starts a second one and waits
    /// for its start-up housekeeping.
    private func restart(_ harness: Harness, version: String = "1.2.0", defaults: [String: NamespaceConfiguration] = ["JZ": Harness.jz],
                         _ body: (HermesClient) -> Void) async throws -> HermesClient {
        let first = try harness.client(defaults: defaults)
        body(first)
        try await first.flush()
        await first.shutdown()
        let second = try harness.client(version: version, defaults: defaults)
        second.start()
        try await second.writer.perform { _ in }  // housekeeping was queued before this
        return second
    }

    @Test func rowsOfOtherAppVersionsAreClearedWhenIsUpdateClear() async throws {
        let harness = Harness()
        var keep = Harness.jz
        keep.isUpdateClear = false
        let client = try await restart(harness, version: "1.3.0", defaults: ["JZ": keep]) { old in
            old.send(type: "appLag", meta: ["a": 1])
            old.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        }
        await client.shutdown()
        #expect(try harness.rows("meta").map { $0["namespace"] as String } == ["JZ"])
        #expect(client.diagnostics().lost("hermes", .appVersionCleared) == 1)
    }

    @Test func expiredRowsAreDeleted() async throws {
        let harness = Harness()
        let client = try await restart(harness) { old in
            old.send(type: "appLag", meta: ["age": "old"])
            harness.advanceWallClock(by: 10 * 86_400_000)
            old.send(type: "appLag", meta: ["age": "recent"])
            harness.advanceWallClock(by: 6 * 86_400_000)  // the first is now 16 days old (> 15)
        }
        await client.shutdown()
        #expect(try harness.metas("meta").map { $0["age"] } == ["recent"])
        #expect(client.diagnostics().lost("hermes", .expired) == 1)
    }

    @Test func rowsLargerThanMaxBodyAreDeleted() async throws {
        let harness = Harness()
        var generous = NamespaceConfiguration.hermesDefault
        generous.maxBodyMByte = 3
        let first = try harness.client(defaults: ["hermes": generous])
        first.send(type: "appCrash", meta: ["big": true], payload: Data(count: 2 << 20))
        first.send(type: "appCrash", meta: ["big": false], payload: Data(count: 100))
        try await first.flush()
        await first.shutdown()

        let second = try harness.client()  // maxBodyMByte back to 1
        second.start()
        try await second.writer.perform { _ in }
        await second.shutdown()
        #expect(try harness.metas("payload").map { $0["big"] } == [false])
        #expect(second.diagnostics().lost("hermes", .oversize) == 1)
    }

    @Test func inFlightRowsGoBackToPending() async throws {
        let harness = Harness()
        let first = try harness.client()
        first.send(type: "appLag", meta: ["a": 1])
        first.send(type: "appCrash", meta: ["a": 1], payload: Data("s".utf8))
        try await first.flush()
        try await first.writer.perform { store in
            try store.pool.write { db in
                try db.execute(sql: "UPDATE meta SET state = 1, batch_id = 'b1'")
                try db.execute(sql: "UPDATE payload SET state = 1, batch_id = 'b1'")
            }
        }
        await first.shutdown()

        let second = try harness.client()
        second.start()
        try await second.writer.perform { _ in }
        await second.shutdown()
        for table in ["meta", "payload"] {
            let rows = try harness.rows(table)
            #expect(rows.count == 1)
            #expect(rows.allSatisfy { $0["state"] as Int == 0 && ($0["batch_id"] as String?) == nil })
        }
    }

    @Test func freePagesAreReclaimedIncrementally() async throws {
        let harness = Harness()
        let client = try harness.client()
        for index in 0..<2_000 { client.send(type: "appLag", meta: ["i": .int(Int64(index)), "pad": .string(String(repeating: "p", count: 200))]) }
        try await client.flush()
        let freed = try await client.writer.perform { store in
            try store.pool.write { db in try db.execute(sql: "DELETE FROM meta") }
            let before = try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") ?? 0 }
            try store.reclaimFreePages()
            let after = try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") ?? 0 }
            return (before, after)
        }
        await client.shutdown()
        #expect(freed.0 > 10)
        #expect(freed.1 == 0)
        #expect(try harness.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 2)
    }
}
