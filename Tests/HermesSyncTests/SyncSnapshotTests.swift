import Foundation
import HermesCollector
import HermesSync
import HermesWire
import Testing

/// A device that starts from a snapshot shipped with its app has the data set at once and
/// catches up from the snapshot's revision only.
struct SyncSnapshotTests {
    @Test func aDeviceStartsFromASnapshotAndCatchesUpOnlyWhatCameAfter() async throws {
        try await withSyncDirectory { directory in
            // Given a data set of 50 players on a team, and a snapshot of it at its revision
            let fixture = try SyncFixture()
            let (author, _) = try fixture.device("author")
            try author.write { changes in
                let team = try changes.create("teams", ["name": "Blue"])
                for index in 0..<50 { try changes.create("players", ["name": .string("player \(index)"), "team_id": .int(team)]) }
            }
            try await author.sync()
            let revision = try await fixture.storage.overview(recent: 0, devices: 0).revision
            let snapshot = directory.appendingPathComponent("shipped.sqlite").path
            try SyncSnapshot.write(records: try await fixture.storage.liveRecords(), revision: revision, schema: TestSchema.v1, to: snapshot)
            // And a change made after it
            let team = try #require(try author.records("teams").first)
            try author.write { try $0.update("teams", id: team.id, ["name": "Navy"]) }
            try await author.sync()

            // When a new device opens its database from the snapshot
            let transport = ServerTransport(server: fixture.server)
            let device = try SyncClient(
                path: directory.appendingPathComponent("device.sqlite").path, clientID: "new-ipad", schema: TestSchema.v1, transport: transport,
                snapshot: snapshot)

            // Then it holds the data set before any exchange, at the snapshot's revision
            #expect(try device.records("players").count == 50 && device.maxRevision() == revision)
            // And its first sync brings only the rename, and its own change applies under its own id
            try device.write { try $0.create("players", ["name": "Ada", "team_id": .int(team.id)]) }
            let report = try await device.sync()
            #expect(report.received == 1 && report.applied == [1] && transport.exchanges == 1)
            try await author.sync()
            #expect(try device.allRecords() == author.allRecords())
            let outcomes = try await fixture.storage.outcomes()
            #expect(outcomes.contains { $0.clientID == "new-ipad" && $0.sequence == 1 && $0.applied })
        }
    }

    @Test func aDatabaseThatExistsIsKeptOverTheSnapshot() async throws {
        try await withSyncDirectory { directory in
            let snapshot = directory.appendingPathComponent("shipped.sqlite").path
            try SyncSnapshot.write(
                records: [SyncRecord(type: "teams", id: 7, revision: 3, attributes: ["name": "Shipped"])], revision: 3, schema: TestSchema.v1,
                to: snapshot)
            let path = directory.appendingPathComponent("device.sqlite").path
            let fixture = try SyncFixture()
            let first = try SyncClient(path: path, clientID: "ipad", schema: TestSchema.v1, transport: ServerTransport(server: fixture.server))
            try first.write { try $0.create("teams", ["name": "Mine"]) }
            first.close()
            // When the app opens its database again, with the snapshot still in its bundle
            let again = try SyncClient(
                path: path, clientID: "ipad", schema: TestSchema.v1, transport: ServerTransport(server: fixture.server), snapshot: snapshot)
            // Then its own data stays, the snapshot unused
            #expect(try again.records("teams").map { $0.attributes?["name"] } == ["Mine"])
            #expect(try again.queuedChangeSets() == 1)
        }
    }
}
