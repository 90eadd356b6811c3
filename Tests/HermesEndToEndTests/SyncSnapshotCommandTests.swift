import ArgumentParser
import Foundation
@testable import hermes
import HermesCollector
import HermesSync
import HermesWire
import Testing

/// `hermes sync snapshot` on the command line, from a collector's SQLite store.
struct SyncSnapshotCommandTests {
    @Test func theStoresRecordsBecomeADeviceDatabaseAtItsRevision() async throws {
        try await CollectorServeCommandTests.withFiles([:]) { directory in
            // Given a collector's store whose sync file holds a team, renamed once (revision 2)
            let database = directory.appendingPathComponent("c.sqlite").path
            let sync = try SQLiteSyncStorage(path: directory.appendingPathComponent("c-sync.sqlite").path)
            let schema = try ServeSettings.syncSchema(CollectorServeCommandTests.exampleSchema)
            let rules = SyncRules(schema: schema)
            let created = try await sync.apply(
                SyncChangeSet(sequence: 1, entries: [.init(.create, SyncRecord(type: "teams", id: -1, revision: 0, attributes: ["name": "Blue"]))]),
                from: SyncIdentity(clientID: "admin"), schemaVersion: schema.version, rules: rules, now: 1)
            let id = try #require(created.entries.first?.record.id)
            _ = try await sync.apply(
                SyncChangeSet(sequence: 2, entries: [.init(.update, SyncRecord(type: "teams", id: id, revision: 1, attributes: ["name": "Navy"]))]),
                from: SyncIdentity(clientID: "admin"), schemaVersion: schema.version, rules: rules, now: 1)
            // When the snapshot command runs
            let out = directory.appendingPathComponent("shipped.sqlite").path
            let command = try #require(
                try HermesCommand.parseAsRoot([
                    "sync", "snapshot", "--storage", database, "--schema", CollectorServeCommandTests.exampleSchema, "--out", out,
                ]) as? SyncSnapshotCommand)
            try await command.run()
            // Then a device starting from the file holds the team as stored, at revision 2
            let device = try SyncClient(
                path: directory.appendingPathComponent("device.sqlite").path, clientID: "ipad", schema: schema,
                transport: HTTPSyncTransport(baseURL: URL(string: "http://127.0.0.1:1")!, appKey: "unused"), snapshot: out)
            #expect(try device.records("teams").map(\.attributes?["name"]) == ["Navy"])
            #expect(try device.maxRevision() == 2)
        }
    }
}
