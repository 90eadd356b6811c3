import Foundation
import GRDB
import HermesCollector
@testable import HermesSync
import HermesWire
import Testing

struct SyncClientTests {
    @Test func createdRecordsGetServerIDsAndForeignKeysFollow() async throws {
        let fixture = try SyncFixture()
        let (ipad, _) = try fixture.device("ipad-1")
        let (other, _) = try fixture.device("ipad-2")

        // Given a team and a player that refers to it, created offline with temporary ids
        let (team, player) = try ipad.write { changes in
            let team = try changes.create("teams", ["name": "Blue"])
            return (team, try changes.create("players", ["name": "Ada", "number": 7, "active": true, "team_id": .int(team)]))
        }
        #expect(team < 0 && player < 0)

        // When the device syncs
        let report = try await ipad.sync()

        // Then the server holds both with real ids, the foreign key rewritten, and so does the device
        #expect(report.applied == [1])
        let server = try await fixture.storage.liveRecords()
        let serverTeam = try #require(server.first { $0.type == "teams" })
        let serverPlayer = try #require(server.first { $0.type == "players" })
        #expect(serverTeam.id > 0 && serverPlayer.attributes?["team_id"] == .int(serverTeam.id))
        #expect(serverPlayer.revision == report.maxRevision)
        #expect(try ipad.allRecords() == server.sorted { ($0.type, $0.id) < ($1.type, $1.id) })
        #expect(try ipad.queuedChangeSets() == 0)

        // And another device receives the same rows
        try await other.sync()
        #expect(try other.allRecords() == ipad.allRecords())
    }

    @Test func theAppsDatabaseObservationSeesWritesAndAnswers() async throws {
        let fixture = try SyncFixture()
        let (ipad, _) = try fixture.device("ipad-1")
        let (other, _) = try fixture.device("ipad-2")
        // GRDB calls an observation on each commit that changed its tables, on the writer's queue.
        let commits = Locked<[[String]]>([])
        let teams = DatabaseRegionObservation(tracking: Table("teams")).start(in: other.database) { error in
            Issue.record(error)
        } onChange: { db in
            commits.withLock { $0.append((try? String.fetchAll(db, sql: "SELECT name FROM teams ORDER BY name")) ?? []) }
        }
        defer { teams.cancel() }

        // When the device writes a team and sends it, then receives a team from the first device
        try other.write { try $0.create("teams", ["name": "Red"]) }
        try await other.sync()
        try ipad.write { try $0.create("teams", ["name": "Blue"]) }
        try await ipad.sync()
        try await other.sync()

        // Then its observation saw each commit: the local write, its answer, the missed team
        #expect(commits.withLock { $0 } == [["Red"], ["Red"], ["Blue", "Red"]])
    }

    @Test func aLocalWriteCommitsSyncedToTheDiskAndTheConnectionThenGoesBackToNormal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try SyncFixture()
        let device = try SyncClient(
            path: directory.appendingPathComponent("device.sqlite").path, clientID: "ipad-1", schema: TestSchema.v1,
            transport: ServerTransport(server: fixture.server)
        )

        // When the device writes a change (SQLite: 2 is FULL, 1 is NORMAL)
        let during = try device.write { changes in
            try changes.create("teams", ["name": "Blue"])
            return try Int.fetchOne(changes.db, sql: "PRAGMA synchronous")
        }

        // Then its transaction was synced to the disk, and later transactions (answers) are not
        #expect(during == 2)
        #expect(try device.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 1)
        #expect(try device.queuedChangeSets() == 1)
    }

    @Test func missedRecordsReplaceLocalOnesUnlessTheLocalOneIsNewer() async throws {
        let team = { (id: Int64, revision: Int64, name: String?) in
            SyncChangeSet.Entry(
                name == nil ? .delete : .update,
                SyncRecord(type: "teams", id: id, revision: revision, attributes: name.map { ["name": .string($0)] }))
        }
        let transport = ScriptedTransport([
            SyncAnswer(maxRevision: 5, changeSets: [SyncChangeSet(revision: 5, entries: [team(1, 5, "Blue"), team(2, 5, "Red")])]),
            // Older copies of both (a record and a tombstone), and a new record.
            SyncAnswer(
                maxRevision: 6,
                changeSets: [
                    SyncChangeSet(revision: 3, entries: [team(1, 3, "Old"), team(2, 3, nil)]),
                    SyncChangeSet(revision: 6, entries: [team(3, 6, "Gold")]),
                ]),
            // The same revision again, and a newer tombstone.
            SyncAnswer(maxRevision: 7, changeSets: [SyncChangeSet(revision: 7, entries: [team(1, 5, "Navy"), team(2, 7, nil)])]),
        ])
        let device = try SyncClient(path: nil, clientID: "ipad-1", schema: TestSchema.v1, transport: transport)

        #expect(try await device.sync().received == 2)
        let older = try await device.sync()
        #expect(older.received == 1)
        #expect(try device.records("teams") == [team(1, 5, "Blue").record, team(2, 5, "Red").record, team(3, 6, "Gold").record])

        #expect(try await device.sync().received == 2)
        #expect(try device.records("teams") == [team(1, 5, "Navy").record, team(3, 6, "Gold").record])
        #expect(try device.maxRevision() == 7 && transport.requests.map(\.maxRevision) == [0, 5, 6])
    }

    @Test func staleUpdateIsRefusedAndTheServersRecordRestored() async throws {
        let fixture = try SyncFixture()
        let (first, _) = try fixture.device("ipad-1")
        let (second, _) = try fixture.device("ipad-2")
        try first.write { try $0.create("teams", ["name": "Blue"]) }
        try await first.sync()
        try await second.sync()
        let id = try #require(try second.records("teams").first?.id)

        // Given both devices change the same team, the first one syncing first
        try first.write { try $0.update("teams", id: id, ["name": "Green"]) }
        try second.write { try $0.update("teams", id: id, ["name": "Red"]) }
        try await first.sync()

        // When the second syncs its change based on the older revision
        let report = try await second.sync()

        // Then it is refused as stale and the second device holds the server's record
        #expect(report.applied.isEmpty)
        let conflict = try #require(report.conflicts.first)
        #expect(conflict.reason == .stale && conflict.sequence == 1)
        #expect(conflict.server.map(\.attributes) == [["name": "Green"]])
        #expect(try second.records("teams").map { $0.attributes?["name"] } == ["Green"])
        #expect(try second.allRecords() == first.allRecords())
    }

    @Test func deleteOfAReferencedRecordComesBackWithTheRecordsTiedToIt() async throws {
        let fixture = try SyncFixture()
        let (first, _) = try fixture.device("ipad-1")
        let (second, _) = try fixture.device("ipad-2")
        try first.write { changes in
            let team = try changes.create("teams", ["name": "Blue"])
            try changes.create("players", ["name": "Ada", "team_id": .int(team)])
        }
        try await first.sync()
        try await second.sync()
        let team = try #require(try second.records("teams").first)

        // Given the second device deletes the team but not its player
        try second.write { try $0.delete("teams", id: team.id) }
        #expect(try second.records("teams").isEmpty)

        // When it syncs
        let report = try await second.sync()

        // Then the delete is refused, naming the team and its player, and the team is back
        let conflict = try #require(report.conflicts.first)
        #expect(conflict.reason == .referenced)
        #expect(Set(conflict.server.map(\.type)) == ["teams", "players"])
        #expect(try second.records("teams") == [team])
        #expect(try second.allRecords() == first.allRecords())
    }

    @Test func changeSetRetriedAfterALostAnswerIsAppliedOnceWithItsIDs() async throws {
        let fixture = try SyncFixture()
        let (ipad, transport) = try fixture.device("ipad-1")
        try ipad.write { changes in
            let team = try changes.create("teams", ["name": "Blue"])
            try changes.create("players", ["name": "Ada", "team_id": .int(team)])
        }

        // Given the server applies the change set but its answer is lost
        transport.dropAnswers(1)
        await #expect(throws: SyncError.self) { try await ipad.sync() }
        #expect(try ipad.queuedChangeSets() == 1)

        // When the device sends it again
        let report = try await ipad.sync()

        // Then it gets the recorded outcome: the server holds one team and one player, the device their ids
        #expect(report.applied == [1])
        let server = try await fixture.storage.liveRecords()
        #expect(server.count == 2)
        #expect(try ipad.allRecords() == server.sorted { ($0.type, $0.id) < ($1.type, $1.id) })
    }

    @Test func catchUpGoesInPagesAndResumesFromTheLastStoredPage() async throws {
        let fixture = try SyncFixture(pageRecords: 10)
        let (writer, _) = try fixture.device("writer")
        for index in 0..<35 { try writer.write { try $0.create("teams", ["name": .string("team \(index)")]) } }
        try await writer.sync()
        let (reader, _) = try fixture.device("reader")

        // Given a new device stopped after its second page
        let first = try await reader.sync(maximumExchanges: 2)
        #expect(first.exchanges == 2 && first.received == 20)
        let revision = try reader.maxRevision()

        // When it syncs again
        let rest = try await reader.sync()

        // Then it asked from where it stopped and holds everything, its revision never going back
        #expect(rest.received == 15 && rest.exchanges == 2)
        #expect(try reader.maxRevision() >= revision)
        #expect(try reader.allRecords() == writer.allRecords())
    }

    @Test func deviceOlderThanTheKeptHistoryGetsAFullCopyAndKeepsItsUnsentChanges() async throws {
        let fixture = try SyncFixture()
        let (first, _) = try fixture.device("ipad-1")
        let (second, _) = try fixture.device("ipad-2")
        try first.write { changes in
            try changes.create("teams", ["name": "Blue"])
            try changes.create("teams", ["name": "Gone"])
        }
        try await first.sync()
        try await second.sync()
        let gone = try #require(try first.records("teams").first { $0.attributes?["name"] == "Gone" })

        // Given a delete whose tombstone the server then forgets, and an unsent change on the second device
        try first.write { try $0.delete("teams", id: gone.id) }
        try await first.sync()
        #expect(try await fixture.storage.pruneHistory(before: 2_000) == 1)
        try second.write { try $0.create("teams", ["name": "Offline"]) }

        // When the second device syncs
        let report = try await second.sync()

        // Then its copy was replaced (the deleted team gone) and its own change applied
        #expect(report.reset && report.applied == [1])
        let names = try second.records("teams").compactMap { $0.attributes?["name"]?.stringValue }
        #expect(names.sorted() == ["Blue", "Offline"])
        try await first.sync()
        #expect(try second.allRecords() == first.allRecords())
    }

    @Test func changeSetThatCanNeverSucceedIsConsumedAsAConflict() async throws {
        let fixture = try SyncFixture(permission: { _, entry in entry.record.type != "players" })
        let (ipad, _) = try fixture.device("ipad-1")
        try ipad.write { try $0.create("players", ["name": "Ada"]) }

        // When a device without permission syncs
        let forbidden = try await ipad.sync()

        // Then its change set is answered as a conflict and leaves the queue, its record gone
        #expect(forbidden.conflicts.map(\.reason) == [.forbidden])
        #expect(try ipad.queuedChangeSets() == 0)
        #expect(try ipad.allRecords().isEmpty)
        #expect(try await fixture.storage.liveRecords().isEmpty)
    }

    @Test func localChangeThatDoesNotFitTheSchemaIsRefusedAndNothingQueued() throws {
        let fixture = try SyncFixture()
        let (ipad, _) = try fixture.device("ipad-1")
        #expect(throws: SyncError.self) { try ipad.write { try $0.create("teams", ["colour": "blue"]) } }
        #expect(throws: SyncError.self) { try ipad.write { try $0.create("players", ["number": "seven"]) } }
        #expect(throws: SyncError.self) { try ipad.write { try $0.update("teams", id: 99, ["name": "x"]) } }
        #expect(try ipad.queuedChangeSets() == 0 && ipad.allRecords().isEmpty)
    }

    @Test func laterChangesToARecordCreatedOfflineGoInTheSameExchange() async throws {
        let fixture = try SyncFixture()
        let (ipad, transport) = try fixture.device("ipad-1")
        let team = try ipad.write { try $0.create("teams", ["name": "Blue"]) }
        try ipad.write { try $0.update("teams", id: team, ["name": "Navy"]) }
        try ipad.write { try $0.create("players", ["name": "Ada", "team_id": .int(team)]) }

        let report = try await ipad.sync()

        // One request: the server read the update and the player through the create's server id
        #expect(report.applied == [1, 2, 3] && report.conflicts.isEmpty)
        #expect(transport.exchanges == 1)
        let server = try await fixture.storage.liveRecords()
        #expect(server.first { $0.type == "teams" }?.attributes?["name"] == "Navy")
        #expect(try ipad.allRecords() == server.sorted { ($0.type, $0.id) < ($1.type, $1.id) })
    }

    @Test func aRefusedChangeSetStopsTheRequestAndTheOnesAfterItGoNext() async throws {
        let fixture = try SyncFixture()
        let (ipad, transport) = try fixture.device("ipad-1")
        let (other, _) = try fixture.device("other")
        try other.write { try $0.create("teams", ["name": "Blue"]) }
        try await other.sync()
        try await ipad.sync()
        let team = try #require(try ipad.records("teams").first)
        // Given the other device renaming the team, and the iPad renaming it too (stale), then adding a player
        try other.write { try $0.update("teams", id: team.id, ["name": "Green"]) }
        try await other.sync()
        try ipad.write { try $0.update("teams", id: team.id, ["name": "Navy"]) }
        try ipad.write { try $0.create("players", ["name": "Ada", "team_id": .int(team.id)]) }

        // When the iPad sends both in one request
        let first = try await ipad.sync(maximumExchanges: 1)

        // Then the stale rename is refused and the player, after it, is not answered yet: still queued
        #expect(first.conflicts.map(\.sequence) == [1] && first.applied.isEmpty)
        #expect(try ipad.queuedChangeSets() == 1)
        // And the next exchange applies it, on the team as the server has it
        let next = try await ipad.sync()
        #expect(next.applied == [2])
        #expect(transport.exchanges == 3)
        try await other.sync()
        #expect(try ipad.allRecords() == other.allRecords())
        #expect(try ipad.records("teams").first?.attributes?["name"] == "Green")
    }

    @Test func queuedChangeSetsAreSentWithServerIDsAndMovedBasesWithoutBeingRewritten() async throws {
        let fixture = try SyncFixture()
        // A device that sends one change set a request: each answer is applied before the next is sent
        let ipad = try SyncClient(
            path: nil, clientID: "ipad-1", schema: TestSchema.v1, transport: ServerTransport(server: fixture.server), maximumChangeSets: 1)
        // Given a team created offline, edited twice, and a player on it, each its own change set
        let team = try ipad.write { try $0.create("teams", ["name": "Blue"]) }
        try ipad.write { try $0.update("teams", id: team, ["name": "Navy"]) }
        try ipad.write { try $0.update("teams", id: team, ["name": "Teal"]) }
        try ipad.write { try $0.create("players", ["name": "Ada", "team_id": .int(team)]) }
        let queue = { try ipad.database.read { try Row.fetchAll($0, sql: "SELECT sequence, change_set FROM hermes_sync_outbox ORDER BY sequence") } }
        let written = try queue()

        // When one exchange sends the create
        let first = try await ipad.sync(maximumExchanges: 1)

        // Then the change sets still queued are stored as they were written
        #expect(first.applied == [1])
        #expect(try queue() == Array(written.dropFirst()))

        // And when the rest are sent, each applies on top of the one before: no conflict, the
        // last name and the server's id in the player's foreign key
        let rest = try await ipad.sync()
        #expect(rest.applied == [2, 3, 4] && rest.conflicts.isEmpty)
        let server = try await fixture.storage.liveRecords()
        let serverTeam = try #require(server.first { $0.type == "teams" })
        #expect(serverTeam.attributes?["name"] == "Teal")
        #expect(server.first { $0.type == "players" }?.attributes?["team_id"] == .int(serverTeam.id))
        #expect(try ipad.allRecords() == server.sorted { ($0.type, $0.id) < ($1.type, $1.id) })
        // And with nothing queued, nothing is kept to read the queue through
        let kept = try await ipad.database.read { db in
            try ["hermes_sync_outbox_keys", "hermes_sync_renames", "hermes_sync_rebases"].map {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)")!
            }
        }
        #expect(kept == [0, 0, 0])
    }
}

extension SyncClientTests {
    @Test func ownRecordDeletedElsewhereBeforeTheRetriedAnswerIsDeletedOnTheNewDevice() async throws {
        let fixture = try SyncFixture()
        let (fresh, transport) = try fixture.device("ipad-1")
        let (other, _) = try fixture.device("ipad-2")

        // Given a new device's first change set applied but its answer lost
        try fresh.write { try $0.create("teams", ["name": "Blue"]) }
        transport.dropAnswers(1)
        await #expect(throws: SyncError.self) { try await fresh.sync() }

        // And another device deleting that record before the retry
        try await other.sync()
        let team = try #require(try other.records("teams").first)
        try other.write { try $0.delete("teams", id: team.id) }
        try await other.sync()

        // When the new device syncs again (its full copy starts from nothing)
        let report = try await fresh.sync()

        // Then its change set is answered as applied and the record's tombstone removes it
        #expect(report.applied == [1])
        #expect(try fresh.allRecords().isEmpty)
        #expect(try await fixture.storage.liveRecords().isEmpty)
    }
}
