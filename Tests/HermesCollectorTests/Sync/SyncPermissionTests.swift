import HermesCollector
import HermesWire
import Testing

/// Permissions that hold: device credentials bound to client ids, and the schema's read and
/// write rules, on SQLite and PostgreSQL.
struct SyncPermissionTests {
    /// Notes only their owner reads and writes; tags everyone reads and editors write; boards are open.
    static let schema = SyncSchema(
        version: 1,
        types: [
            SyncEntityType("boards", attributes: [.init("title", .string)]),
            SyncEntityType("tags", attributes: [.init("name", .string)], write: [.role("editor")]),
            SyncEntityType(
                "notes", attributes: [.init("text", .string), .init("owner", .string), .init("board_id", .reference("boards"))], owner: "owner",
                read: [.owner], write: [.owner]),
        ])

    /// A server whose store holds credentials for `alice-ipad` (user alice) and `bob-ipad` (bob, editor).
    struct Fixture {
        let server: SyncServer
        let alice: String
        let bob: String
        var sequences: [String: Int64] = [:]

        init(storage: any SyncStorage, requireCredentials: Bool = false) async throws {
            server = SyncServer(storage: storage, rules: SyncRules(schema: SyncPermissionTests.schema, requireCredentials: requireCredentials))
            let (alice, aliceSecret) = try SyncDevice.issue(clientID: "alice-ipad", user: "alice", roles: [], now: 1)
            let (bob, bobSecret) = try SyncDevice.issue(clientID: "bob-ipad", user: "bob", roles: ["editor"], now: 1)
            try await storage.addDevice(alice)
            try await storage.addDevice(bob)
            self.alice = aliceSecret
            self.bob = bobSecret
        }

        /// Sends one change set of `entries` (or none) from `clientID` at revision `from`.
        mutating func sync(
            _ clientID: String, credential: String?, from revision: Int64 = 0, _ entries: [SyncChangeSet.Entry] = []
        ) async throws(CollectorError) -> SyncAnswer {
            var changeSets: [SyncChangeSet] = []
            if !entries.isEmpty {
                sequences[clientID, default: 0] += 1
                changeSets = [SyncChangeSet(sequence: sequences[clientID], entries: entries)]
            }
            let request = SyncRequest(clientID: clientID, schemaVersion: 1, maxRevision: revision, changeSets: changeSets)
            return try await server.answer(request, credential: credential, now: 1)
        }
    }

    static func create(_ type: String, _ attributes: [String: JSONValue], id: Int64 = -1) -> SyncChangeSet.Entry {
        .init(.create, SyncRecord(type: type, id: id, revision: 0, attributes: attributes))
    }

    @Test(arguments: StorageKind.available)
    func writeRulesRefuseWhatTheDeviceMayNotWriteAndNothingIsStored(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            var fixture = try await Fixture(storage: storage)
            // Given alice's note on a board
            let created = try await fixture.sync(
                "alice-ipad", credential: fixture.alice,
                [
                    Self.create("boards", ["title": "Sprint"], id: -1),
                    Self.create("notes", ["text": "mine", "owner": "alice", "board_id": -1], id: -2),
                ])
            #expect(created.outcomes.first?.conflict == false)
            let note = try #require(created.outcomes.first?.entries.first { $0.record.type == "notes" }?.record)
            // When alice writes a note in bob's name, bob edits or deletes alice's note, alice
            // gives her note to bob, and alice (no editor) creates a tag
            let forged = try await fixture.sync("alice-ipad", credential: fixture.alice, [Self.create("notes", ["text": "x", "owner": "bob"])])
            var edited = note
            edited.attributes?["text"] = "bob was here"
            let bobEdit = try await fixture.sync("bob-ipad", credential: fixture.bob, [.init(.update, edited)])
            let bobDelete = try await fixture.sync(
                "bob-ipad", credential: fixture.bob,
                [.init(.delete, SyncRecord(type: "notes", id: note.id, revision: note.revision, attributes: nil))])
            var given = note
            given.attributes?["owner"] = "bob"
            let giveAway = try await fixture.sync("alice-ipad", credential: fixture.alice, [.init(.update, given)])
            let aliceTag = try await fixture.sync("alice-ipad", credential: fixture.alice, [Self.create("tags", ["name": "urgent"])])
            // Then each is refused as forbidden; bob's refusals do not show him alice's note
            for refused in [forged, bobEdit, bobDelete, giveAway, aliceTag] {
                #expect(refused.outcomes.first?.conflict == true && refused.outcomes.first?.reason == "forbidden")
            }
            #expect(bobEdit.outcomes.first?.entries.isEmpty == true && bobDelete.outcomes.first?.entries.isEmpty == true)
            #expect(giveAway.outcomes.first?.entries.map(\.record) == [note])
            // And bob, an editor, may create a tag; the store holds the board, alice's note as she wrote it, and bob's tag
            #expect(
                try await fixture.sync("bob-ipad", credential: fixture.bob, [Self.create("tags", ["name": "urgent"])]).outcomes.first?.conflict
                    == false)
            let stored = try await storage.liveRecords()
            #expect(stored.map(\.type).sorted() == ["boards", "notes", "tags"])
            #expect(stored.first { $0.type == "notes" }?.attributes == note.attributes)
        }
    }

    @Test(arguments: StorageKind.available)
    func catchUpCarriesOnlyWhatTheDeviceMayRead(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            var fixture = try await Fixture(storage: storage)
            // Given alice's note and bob's note, each on a shared board
            _ = try await fixture.sync("alice-ipad", credential: fixture.alice, [Self.create("boards", ["title": "Sprint"])])
            _ = try await fixture.sync("alice-ipad", credential: fixture.alice, [Self.create("notes", ["text": "a", "owner": "alice"])])
            _ = try await fixture.sync("bob-ipad", credential: fixture.bob, [Self.create("notes", ["text": "b", "owner": "bob"])])
            // When each device, and one without a credential, catches up from the start
            let aliceView = try await fixture.sync("alice-ipad", credential: fixture.alice).missed.flatMap(\.entries).map(\.record)
            let bobView = try await fixture.sync("bob-ipad", credential: fixture.bob).missed.flatMap(\.entries).map(\.record)
            let kiosk = try await fixture.sync("kiosk", credential: nil).missed.flatMap(\.entries).map(\.record)
            // Then each sees the board and its own user's notes only; the kiosk sees the board alone
            #expect(aliceView.map(\.type) == ["boards", "notes"] && aliceView.last?.attributes?["owner"] == "alice")
            #expect(bobView.map(\.type) == ["boards", "notes"] && bobView.last?.attributes?["owner"] == "bob")
            #expect(kiosk.map(\.type) == ["boards"])
        }
    }

    @Test(arguments: StorageKind.available)
    func aDeviceCannotPassItselfOffAsAnotherAndARevokedOneIsRefused(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            var fixture = try await Fixture(storage: storage)
            let note = [Self.create("notes", ["text": "x", "owner": "alice"])]
            // alice's client id without its credential, with bob's, or with a made-up one: refused before anything is applied
            for credential in [nil, fixture.bob, SyncDevice.secretPrefix + String(repeating: "0", count: 64)] {
                await #expect(throws: CollectorError.self) { try await fixture.sync("alice-ipad", credential: credential, note) }
            }
            // bob's credential under a client id that has none: refused too
            await #expect(throws: CollectorError.self) { try await fixture.sync("mallory", credential: fixture.bob, note) }
            #expect(try await storage.liveRecords().isEmpty)
            // A device without a credential may not write alice's notes either
            #expect(try await fixture.sync("mallory", credential: nil, note).outcomes.first?.reason == "forbidden")
            // Once alice's credential is revoked, her requests are refused, and her client id cannot be issued again
            #expect(try await storage.revokeDevice(clientID: "alice-ipad", now: 2))
            #expect(try await storage.revokeDevice(clientID: "alice-ipad", now: 3) == false)
            let error = await #expect(throws: CollectorError.self) { try await fixture.sync("alice-ipad", credential: fixture.alice) }
            #expect(error?.code == .unauthorized && error?.message.contains("revoked") == true)
            let again = try SyncDevice.issue(clientID: "alice-ipad", user: "alice", roles: [], now: 4).0
            await #expect(throws: CollectorError.self) { try await storage.addDevice(again) }
            #expect(try await storage.devices().map { "\($0.clientID) \($0.revokedAt != nil)" } == ["alice-ipad true", "bob-ipad false"])
            #expect(try await storage.device(clientID: "bob-ipad")?.roles == ["editor"])
            // bob still syncs
            #expect(try await fixture.sync("bob-ipad", credential: fixture.bob).maxRevision == 0)
        }
    }

    @Test func requiredCredentialsRefuseADeviceWithout() async throws {
        var fixture = try await Fixture(storage: try SQLiteSyncStorage.inMemory(), requireCredentials: true)
        let error = await #expect(throws: CollectorError.self) { try await fixture.sync("kiosk", credential: nil) }
        #expect(error?.code == .unauthorized)
        #expect(try await fixture.sync("bob-ipad", credential: fixture.bob).maxRevision == 0)
    }
}
