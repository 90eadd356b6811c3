import HermesCollector
import HermesWire
import Testing

/// The console's sync page reads the same overview from every store.
struct SyncOverviewTests {
    typealias Contract = SyncStorageContractTests

    @Test(arguments: StorageKind.available)
    func theOverviewCountsTypesChangeSetsConflictsAndDevices(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let created = try await storage.apply(
                Contract.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Contract.rules, now: 10)
            _ = try await storage.apply(
                Contract.create(1, "teams", -1, ["name": "b"]), from: SyncIdentity(clientID: "d2"), schemaVersion: 1, rules: Contract.rules, now: 20)
            let id = try #require(created.entries.first?.record.id)
            // A player on a team that does not exist: refused, recorded as a conflict
            _ = try await storage.apply(
                Contract.create(2, "players", -2, ["name": "p", "team_id": .int(id + 1_000)]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1,
                rules: Contract.rules,
                now: 30)
            let overview = try await storage.overview(recent: 10, devices: 10)
            #expect(overview.revision == 2)
            #expect(overview.types == [SyncOverview.TypeCount(type: "teams", live: 2, deleted: 0)])
            #expect(overview.recent.map(\.receivedAt) == [30, 20, 10])
            #expect(overview.recent.first?.conflictReason != nil)
            #expect(overview.recent.last?.conflictReason == nil)
            #expect(overview.recent.last?.revision == 1)
            #expect(
                overview.devices == [
                    SyncOverview.Device(clientID: "d1", lastExchange: 30, changeSets: 2, conflicts: 1),
                    SyncOverview.Device(clientID: "d2", lastExchange: 20, changeSets: 1, conflicts: 0),
                ])
        }
    }
}
