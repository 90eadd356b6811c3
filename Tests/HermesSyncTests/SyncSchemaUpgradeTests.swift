import Foundation
import HermesCollector
import HermesSync
import HermesWire
import Testing

/// Schema versions moving under offline work: nothing a device saved is lost.
struct SyncSchemaUpgradeTests {
    /// The test schema's next version: teams gained a color.
    static let v2 = SyncSchema(
        version: 2,
        types: TestSchema.v1.types.map { type in
            type.name == "teams" ? SyncEntityType("teams", attributes: type.attributes + [.init("color", .string)]) : type
        })

    /// A device database file in a new directory, removed after `body`.
    static func withDeviceFile(_ body: (String) async throws -> Void) async throws {
        try await withSyncDirectory { try await body($0.appendingPathComponent("device.sqlite").path) }
    }

    @Test func anAppUpdatedBeforeItsServerKeepsItsChangesQueuedUntilTheServerSpeaksItsVersion() async throws {
        try await Self.withDeviceFile { path in
            // Given a server still at version 1, and a device whose app speaks version 2 and colors a new team
            let storage = try SQLiteSyncStorage.inMemory()
            let oldServer = ServerTransport(server: SyncServer(storage: storage, rules: SyncRules(schema: TestSchema.v1)))
            var device = try SyncClient(path: path, clientID: "ipad", schema: Self.v2, transport: oldServer)
            try device.write { try $0.create("teams", ["name": "Blue", "color": "navy"]) }
            try device.write { try $0.create("teams", ["name": "Green"]) }

            // When it syncs
            let waiting = try await device.sync()

            // Then the first change set waits (schemaPending), the one after it with it, both
            // still queued with their records, and nothing reached the server
            #expect(waiting.pending == [1] && waiting.applied.isEmpty && waiting.conflicts.isEmpty)
            #expect(try device.queuedChangeSets() == 2)
            #expect(try device.records("teams").count == 2)
            #expect(try await storage.liveRecords().isEmpty)

            // When the server moves to version 2 and the device syncs again
            device.close()
            let newServer = ServerTransport(server: SyncServer(storage: storage, rules: SyncRules(schema: Self.v2)))
            device = try SyncClient(path: path, clientID: "ipad", schema: Self.v2, transport: newServer)
            let applied = try await device.sync()

            // Then both apply in their order, the color with them
            #expect(applied.applied == [1, 2] && applied.pending.isEmpty)
            #expect(try device.queuedChangeSets() == 0)
            #expect(try await storage.liveRecords().map(\.attributes) == [["name": "Blue", "color": "navy"], ["name": "Green"]])
        }
    }

    @Test func anOldAppsOfflineWorkAppliesAndItsUpdateBringsWhatItsSchemaLacked() async throws {
        try await Self.withDeviceFile { path in
            // Given a server at version 2, a version 2 device, and a version 1 device that made a team offline
            let fixture = try SyncFixture(schema: Self.v2)
            let (modern, _) = try fixture.device("modern", schema: Self.v2)
            let transport = ServerTransport(server: fixture.server)
            var old = try SyncClient(path: path, clientID: "old", schema: TestSchema.v1, transport: transport)
            try old.write { try $0.create("teams", ["name": "Blue"]) }

            // When the old device syncs, the modern one colors the team, and the old one renames it
            #expect(try await old.sync().applied == [1])
            try await modern.sync()
            let team = try #require(try modern.records("teams").first)
            try modern.write { try $0.update("teams", id: team.id, ["name": "Blue", "color": "red"]) }
            try await modern.sync()
            try await old.sync()
            try old.write { try $0.update("teams", id: team.id, ["name": "Navy"]) }
            let renamed = try await old.sync()

            // Then its change applied, and the color it could not see stayed on the server
            #expect(renamed.applied == [2] && renamed.conflicts.isEmpty)
            #expect(try await fixture.storage.liveRecords().first?.attributes == ["name": "Navy", "color": "red"])

            // When its app is updated to version 2 (the same database, opened with the new schema)
            old.close()
            old = try SyncClient(path: path, clientID: "old", schema: Self.v2, transport: transport)
            #expect(try old.maxRevision() == 0)
            try await old.sync()

            // Then it fetched the data set again and holds the color too, as the modern device does
            try await modern.sync()
            #expect(try old.records("teams").first?.attributes?["color"] == "red")
            #expect(try old.allRecords() == modern.allRecords())
        }
    }
}
