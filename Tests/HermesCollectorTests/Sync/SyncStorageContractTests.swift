import HermesCollector
import HermesWire
import Testing

/// What every ``SyncStorage`` must do: SQLite always, PostgreSQL when a server is given (always in CI).
struct SyncStorageContractTests {
    static let schema = SyncSchema(
        version: 1,
        types: [
            SyncEntityType("teams", attributes: [.init("name", .string)]),
            SyncEntityType("players", attributes: [.init("name", .string), .init("team_id", .reference("teams"))]),
        ])
    static let rules = SyncRules(schema: schema, pageRecords: 2)

    static func create(_ sequence: Int64, _ type: String, _ id: Int64, _ attributes: [String: JSONValue]) -> SyncChangeSet {
        SyncChangeSet(sequence: sequence, entries: [.init(.create, SyncRecord(type: type, id: id, revision: 0, attributes: attributes))])
    }

    @Test(arguments: StorageKind.available)
    func revisionsCountUpByOneAndRetriedChangeSetGetsTheRecordedOutcome(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let first = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let second = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "b"]), from: SyncIdentity(clientID: "d2"), schemaVersion: 1, rules: Self.rules, now: 1)
            let again = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            #expect(first.revision == 1 && second.revision == 2)
            #expect(again == first)
            #expect(first.entries.first?.oldID == -1)
            #expect(try await storage.liveRecords().count == 2)
        }
    }

    @Test(arguments: StorageKind.available)
    func staleUpdateIsRolledBackWholeWithTheServersRecord(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let created = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let id = try #require(created.entries.first?.record.id)
            let update = { (sequence: Int64, name: String, base: Int64) in
                SyncChangeSet(
                    sequence: sequence,
                    entries: [
                        .init(.create, SyncRecord(type: "players", id: -1, revision: 0, attributes: ["name": "p", "team_id": .int(id)])),
                        .init(.update, SyncRecord(type: "teams", id: id, revision: base, attributes: ["name": .string(name)])),
                    ])
            }
            let applied = try await storage.apply(update(2, "b", 1), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let refused = try await storage.apply(update(1, "c", 1), from: SyncIdentity(clientID: "d2"), schemaVersion: 1, rules: Self.rules, now: 1)
            #expect(applied.conflict == false && applied.revision == 2)
            #expect(refused.conflict == true && refused.reason == "stale" && refused.revision == nil)
            #expect(refused.entries == [.init(.update, SyncRecord(type: "teams", id: id, revision: 2, attributes: ["name": "b"]))])
            #expect(try await storage.liveRecords().filter { $0.type == "players" }.count == 1)
        }
    }

    @Test(arguments: StorageKind.available)
    func referencedRecordIsNotDeletedAndUnreferencedOneLeavesATombstone(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let created = try await storage.apply(
                SyncChangeSet(
                    sequence: 1,
                    entries: [
                        .init(.create, SyncRecord(type: "teams", id: -1, revision: 0, attributes: ["name": "a"])),
                        .init(.create, SyncRecord(type: "players", id: -2, revision: 0, attributes: ["name": "p", "team_id": -1])),
                    ]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let team = try #require(created.entries.first { $0.record.type == "teams" }?.record)
            let player = try #require(created.entries.first { $0.record.type == "players" }?.record)
            #expect(player.attributes?["team_id"] == .int(team.id))
            let delete = SyncChangeSet(sequence: 2, entries: [.init(.delete, SyncRecord(type: "teams", id: team.id, revision: 1, attributes: nil))])
            let refused = try await storage.apply(delete, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            #expect(refused.reason == "referenced" && Set(refused.entries.map(\.record)) == [team, player])
            let both = SyncChangeSet(
                sequence: 3,
                entries: [
                    .init(.delete, SyncRecord(type: "players", id: player.id, revision: 1, attributes: nil)),
                    .init(.delete, SyncRecord(type: "teams", id: team.id, revision: 1, attributes: nil)),
                ])
            #expect(try await storage.apply(both, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1).revision == 2)
            let page = try await storage.page(after: 1, cursor: nil, limit: 10)
            #expect(page.changeSets.map(\.entries.count) == [2] && page.changeSets[0].entries.allSatisfy { $0.operation == .delete })
        }
    }

    @Test(arguments: StorageKind.available)
    func pagesNeverSplitARevisionAndAFullCopyKeepsTheRevisionFromGoingBack(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            for sequence in Int64(1)...3 {
                _ = try await storage.apply(
                    SyncChangeSet(
                        sequence: sequence,
                        entries: [
                            .init(.create, SyncRecord(type: "teams", id: -1, revision: 0, attributes: ["name": "x"])),
                            .init(.create, SyncRecord(type: "teams", id: -2, revision: 0, attributes: ["name": "y"])),
                            .init(.create, SyncRecord(type: "teams", id: -3, revision: 0, attributes: ["name": "z"])),
                        ]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            }
            // A device at revision 1 catches up two records at a time: each page is a whole revision.
            let caughtUp = try await storage.page(after: 1, cursor: nil, limit: 2)
            #expect(caughtUp.maxRevision == 2 && caughtUp.hasMore && caughtUp.cursor == nil)
            #expect(caughtUp.changeSets.map(\.revision) == [2] && caughtUp.changeSets[0].entries.count == 3)

            // A new device's full copy reports the server's revision from the first page on.
            let first = try await storage.page(after: 0, cursor: nil, limit: 2)
            #expect(first.maxRevision == 3 && first.hasMore && first.cursor != nil && !first.reset)
            let second = try await storage.page(after: first.maxRevision, cursor: first.cursor, limit: 2)
            #expect(second.maxRevision == 3 && second.changeSets.map(\.revision) == [2])
            let last = try await storage.page(after: second.maxRevision, cursor: second.cursor, limit: 2)
            #expect(last.maxRevision == 3 && !last.hasMore && last.cursor == nil && last.changeSets.map(\.revision) == [3])
        }
    }

    @Test(arguments: StorageKind.available)
    func deviceBehindTheForgottenHistoryGetsAReset(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let created = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            _ = try await storage.apply(
                Self.create(2, "teams", -1, ["name": "b"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let id = try #require(created.entries.first?.record.id)
            let delete = SyncChangeSet(sequence: 3, entries: [.init(.delete, SyncRecord(type: "teams", id: id, revision: 1, attributes: nil))])
            _ = try await storage.apply(delete, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 5)
            #expect(try await storage.pruneHistory(before: 4) == 0)
            #expect(try await storage.pruneHistory(before: 6) == 1)
            let behind = try await storage.page(after: 2, cursor: nil, limit: 10)
            #expect(behind.reset && behind.maxRevision == 3)
            #expect(behind.changeSets.flatMap(\.entries).map(\.record.attributes) == [["name": "b"]])
            let current = try await storage.page(after: 3, cursor: nil, limit: 10)
            #expect(!current.reset && current.changeSets.isEmpty)
        }
    }
}

extension SyncStorageContractTests {
    @Test(arguments: StorageKind.available)
    func deviceAheadOfTheServerGetsAReset(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            _ = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let ahead = try await storage.page(after: 9, cursor: nil, limit: 10)
            #expect(ahead.reset && ahead.maxRevision == 1 && ahead.changeSets.count == 1)
        }
    }
}

extension SyncStorageContractTests {
    @Test(arguments: StorageKind.available)
    func concurrentAppliesNeverLetACursorSkipACommit(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            // Given two devices creating 15 teams each at the same moment
            async let writing: Void = withThrowingTaskGroup(of: Void.self) { group in
                for device in ["d1", "d2"] {
                    group.addTask {
                        for sequence in Int64(1)...15 {
                            let changeSet = Self.create(sequence, "teams", -1, ["name": .string("\(device)-\(sequence)")])
                            _ = try await storage.apply(changeSet, from: SyncIdentity(clientID: device), schemaVersion: 1, rules: Self.rules, now: 1)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // When a third device follows them, a page at a time from the revision it reached
            var revision: Int64 = 0
            var revisions: [Int64] = []
            var ids: [Int64] = []
            func follow() async throws {
                let page = try await storage.page(after: revision, cursor: nil, limit: 1_000)
                revisions += page.changeSets.compactMap(\.revision)
                ids += page.changeSets.flatMap(\.entries).map(\.record.id)
                revision = page.maxRevision
            }
            for _ in 0..<40 { try await follow() }
            try await writing
            try await follow()
            // Then it saw every revision once, in order, and every record
            #expect(revisions == Array(1...30))
            #expect(ids.sorted() == (try await storage.liveRecords().map(\.id).sorted()))
        }
    }

    @Test(arguments: StorageKind.available)
    func sameChangeSetSentTwiceAtTheSameMomentIsAppliedOnce(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let changeSet = SyncChangeSet(
                sequence: 1,
                entries: [
                    .init(.create, SyncRecord(type: "teams", id: -1, revision: 0, attributes: ["name": "a"])),
                    .init(.create, SyncRecord(type: "players", id: -2, revision: 0, attributes: ["name": "p", "team_id": -1])),
                ])
            async let first = storage.apply(changeSet, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            async let second = storage.apply(changeSet, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            let (one, other) = try await (first, second)
            #expect(one == other && one.conflict == false && one.revision == 1)
            #expect(one.entries.map(\.oldID) == [-1, -2])
            #expect(try await storage.liveRecords().count == 2)
        }
    }

    @Test(arguments: StorageKind.available)
    func neverApplicableChangeSetIsConsumedAndTheNextOneApplies(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            // Given a change set naming an unknown type, made under the server's schema version
            let unknown = Self.create(1, "coaches", -1, ["name": "c"])
            let invalid = try await storage.apply(unknown, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            // Then it is refused, consumed (the same answer again), and the next one applies
            #expect(invalid.conflict == true && invalid.reason == "invalid" && invalid.entries.isEmpty)
            #expect(try await storage.apply(unknown, from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1) == invalid)
            let next = try await storage.apply(
                Self.create(3, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: Self.rules, now: 1)
            #expect(next.conflict == false && next.revision == 1)
            // And a sequence below the device's last one, whose outcome is not kept, is expired
            _ = try await storage.apply(
                Self.create(5, "teams", -1, ["name": "b"]), from: SyncIdentity(clientID: "d2"), schemaVersion: 1, rules: Self.rules, now: 1)
            let late = try await storage.apply(
                Self.create(4, "teams", -1, ["name": "c"]), from: SyncIdentity(clientID: "d2"), schemaVersion: 1, rules: Self.rules, now: 1)
            #expect(late.conflict == true && late.reason == "expired")
            #expect(try await storage.liveRecords().map(\.attributes?["name"]) == ["a", "b"])
        }
    }

    /// Version 2 of the contract's schema: teams gained a color.
    static let schemaV2 = SyncSchema(
        version: 2,
        types: [
            SyncEntityType("teams", attributes: [.init("name", .string), .init("color", .string)]),
            SyncEntityType("players", attributes: [.init("name", .string), .init("team_id", .reference("teams"))]),
        ])

    @Test(arguments: StorageKind.available)
    func changeSetsOfAnotherSchemaVersionApplyWhenTheServersSchemaTakesThemAndWaitOtherwise(kind: StorageKind) async throws {
        try await TestStorage.withSyncStore(kind) { storage in
            let rules = SyncRules(schema: Self.schemaV2, pageRecords: 2)
            func update(_ sequence: Int64, _ id: Int64, base: Int64, _ attributes: [String: JSONValue]) -> SyncChangeSet {
                SyncChangeSet(
                    sequence: sequence, entries: [.init(.update, SyncRecord(type: "teams", id: id, revision: base, attributes: attributes))])
            }
            // Given a server at version 2: a version 1 device creates a team, a version 2 device colors it
            let created = try await storage.apply(
                Self.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "old"), schemaVersion: 1, rules: rules, now: 1)
            let team = try #require(created.entries.first?.record.id)
            let colored = try await storage.apply(
                update(1, team, base: 1, ["name": "a", "color": "red"]), from: SyncIdentity(clientID: "new"), schemaVersion: 2, rules: rules, now: 1)
            #expect(created.conflict == false && colored.conflict == false && colored.revision == 2)
            // When the version 1 device renames it, knowing nothing of colors
            let renamed = try await storage.apply(
                update(2, team, base: 2, ["name": "b"]), from: SyncIdentity(clientID: "old"), schemaVersion: 1, rules: rules, now: 1)
            // Then the rename applies and the color it did not know stays
            #expect(renamed.conflict == false && renamed.revision == 3)
            #expect(try await storage.liveRecords().first?.attributes == ["name": "b", "color": "red"])
            // When it sends a change set using an attribute version 2 does not have, and one after it
            let motto = Self.create(3, "teams", -1, ["name": "c", "motto": "onwards"])
            let pending = try await storage.apply(motto, from: SyncIdentity(clientID: "old"), schemaVersion: 1, rules: rules, now: 1)
            // Then it waits: schemaPending, nothing of it answered or applied, and no outcome recorded,
            // so the same sequence applies once its app speaks version 2
            #expect(pending.conflict == true && pending.reason == "schemaPending" && pending.entries.isEmpty && pending.revision == nil)
            #expect(try await storage.liveRecords().count == 1)
            let resent = try await storage.apply(
                Self.create(3, "teams", -1, ["name": "c"]), from: SyncIdentity(clientID: "old"), schemaVersion: 2, rules: rules, now: 1)
            #expect(resent.conflict == false && resent.revision == 4)
            // And an attribute unknown under the server's own version is still invalid, for good
            let wrong = try await storage.apply(
                Self.create(4, "teams", -1, ["motto": "x"]), from: SyncIdentity(clientID: "old"), schemaVersion: 2, rules: rules, now: 1)
            #expect(wrong.reason == "invalid")
            #expect(
                try await storage.apply(
                    Self.create(4, "teams", -1, ["motto": "x"]), from: SyncIdentity(clientID: "old"), schemaVersion: 2, rules: rules, now: 1) == wrong
            )
        }
    }
}
