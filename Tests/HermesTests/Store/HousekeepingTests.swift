import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

struct HousekeepingTests {
    static let configURL = URL(string: "http://127.0.0.1:9/v1/config")!

    /// Runs a first client that stores `body`'s records, then starts a second one and waits
    /// for its start-up housekeeping.
    private func restart(
        _ harness: Harness, version: String = "1.2.0", defaults: [String: NamespaceConfiguration] = ["JZ": Harness.jz],
        newDefaults: [String: NamespaceConfiguration]? = nil, configURL: URL? = nil,
        _ body: (HermesClient) async throws -> Void
    ) async throws -> HermesClient {
        let first = try harness.client(defaults: defaults, configURL: configURL)
        try await body(first)
        try await first.flush()
        await first.shutdown()
        return try await startHousekept(harness, version: version, defaults: newDefaults ?? defaults, configURL: configURL)
    }

    /// Starts a client offline and returns once its start-up housekeeping is done (`upload()`
    /// waits for it, and sends nothing offline).
    private func startHousekept(
        _ harness: Harness, version: String = "1.2.0", defaults: [String: NamespaceConfiguration] = ["JZ": Harness.jz],
        configURL: URL? = nil
    ) async throws -> HermesClient {
        let client = try harness.client(version: version, defaults: defaults, configURL: configURL, network: StaticNetworkMonitor(.unreachable))
        client.start()
        let summaries = await client.upload()
        #expect(summaries.values.allSatisfy { $0.recordsSent == 0 })
        return client
    }

    /// Without a configuration URL the local configuration is the only word there is.
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

    // MARK: - After an upgrade, isUpdateClear follows the server

    @Test(arguments: [false, true])
    func afterAnUpgradeThePreviousVersionsCachedServerConfigurationDecides(isUpdateClear: Bool) async throws {
        // Given version 1.2.0 fetched a document setting hermes' isUpdateClear, and stored a record
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 4, hermesClears: isUpdateClear))
        }
        let harness = Harness(transport: transport)
        let client = try await restart(harness, version: "1.3.0", configURL: Self.configURL) { old in
            await old.refreshConfiguration()
            old.send(type: "appLag", meta: ["a": 1])
            // When version 1.3.0 starts and its fetch fails: the built-in default (true) would clear
            transport.respond { _ in throw URLError(.notConnectedToInternet) }
        }
        await client.shutdown()

        // Then the old version's row follows the server's last word
        #expect(try harness.rows("meta").count == (isUpdateClear ? 0 : 1))
        #expect(client.diagnostics().lost("hermes", .appVersionCleared) == (isUpdateClear ? 1 : 0))
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func withNoCachedServerConfigurationHousekeepingWaitsForTheFirstFetch(isUpdateClear: Bool) async throws {
        // Given version 1.2.0 stored a record and never fetched a configuration
        let harness = Harness(
            transport: InMemoryTransport { _ in
                TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 4, hermesClears: isUpdateClear))
            })
        let old = try harness.client()
        old.send(type: "appLag", meta: ["a": 1])
        try await old.flush()
        await old.shutdown()

        // When version 1.3.0 starts with a configuration URL that answers
        let upgraded = try await startHousekept(harness, version: "1.3.0", configURL: Self.configURL)
        await upgraded.shutdown()

        // Then housekeeping decided with the fetched document
        #expect(try harness.rows("meta").count == (isUpdateClear ? 0 : 1))
        #expect(upgraded.diagnostics().lost("hermes", .appVersionCleared) == (isUpdateClear ? 1 : 0))
    }

    @Test func withNoServerConfigurationAtAllOldAndOrphanedRowsAreKept() async throws {
        // Given version 1.2.0 stored records in hermes and JZ, 20 days ago, and never fetched a configuration
        let harness = Harness(transport: InMemoryTransport { _ in throw URLError(.notConnectedToInternet) })
        let client = try await restart(harness, version: "1.3.0", newDefaults: [:], configURL: Self.configURL) { old in
            old.send(type: "appLag", meta: ["a": 1])
            old.send(type: "pay", prefix: "JZ", meta: ["a": 1])
            harness.advanceWallClock(by: 20 * 86_400_000)
            old.send(type: "appLag", meta: ["a": 2])
        }
        // When version 1.3.0, which no longer configures JZ, cannot fetch at start (above)
        await client.shutdown()

        // Then no row is deleted on a guess, except by the expiry of a configured namespace
        #expect(try harness.rows("meta").map { $0["namespace"] as String } == ["JZ", "hermes"])
        #expect(client.diagnostics().lost("hermes", .expired) == 1)
        #expect(client.diagnostics().lost("hermes", .appVersionCleared) == 0)
        #expect(client.diagnostics().lost("JZ", .orphaned) == 0)
    }

    // MARK: - Rows of a namespace no longer configured

    @Test func rowsOfANamespaceNoLongerConfiguredExpireAfterFifteenDaysAsOrphaned() async throws {
        // Given JZ rows 16 and 10 days old, a hermes row 16 days old
        let harness = Harness()
        let client = try await restart(harness, newDefaults: [:]) { old in
            old.send(type: "pay", prefix: "JZ", meta: ["age": "old"])
            old.send(type: "appLag", meta: ["age": "old"])
            harness.advanceWallClock(by: 6 * 86_400_000)
            old.send(type: "pay", prefix: "JZ", meta: ["age": "young"])
            harness.advanceWallClock(by: 10 * 86_400_000)
        }
        // When the next start no longer configures JZ (above)
        await client.shutdown()

        // Then JZ's old row is deleted and counted as orphaned, its young one kept
        #expect(try harness.rows("meta").map { $0["namespace"] as String } == ["JZ"])
        #expect(try harness.metas("meta").map { $0["age"] } == ["young"])
        #expect(client.diagnostics().lost("JZ", .orphaned) == 1)
        #expect(client.diagnostics().lost("JZ", .expired) == 0)
        #expect(client.diagnostics().lost("hermes", .expired) == 1)
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

    @Test func aRowThatMeetsSeveralRulesIsCountedOnceUnderTheFirst() async throws {
        // Given rows of version 1.2.0 in both tables, 16 days old (both cleared and expired), and a recent one
        let harness = Harness()
        let client = try await restart(harness, version: "1.3.0") { old in
            old.send(type: "appLag", meta: ["age": "old"])
            old.send(type: "appCrash", meta: ["age": "old"], payload: Data([1, 2, 3]))
            harness.advanceWallClock(by: 16 * 86_400_000)
            old.send(type: "appLag", meta: ["age": "recent"])
        }
        await client.shutdown()
        // Then every row of the old version is gone, each counted once, as cleared
        #expect(try harness.rows("meta").isEmpty)
        #expect(try harness.rows("payload").isEmpty)
        #expect(client.diagnostics().lost("hermes", .appVersionCleared) == 3)
        #expect(client.diagnostics().lost("hermes", .expired) == 0)
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

        let second = try await startHousekept(harness)  // maxBodyMByte back to 1
        await second.shutdown()
        #expect(try harness.metas("payload").map { $0["big"] } == [false])
        #expect(second.diagnostics().lost("hermes", .oversize) == 1)
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
