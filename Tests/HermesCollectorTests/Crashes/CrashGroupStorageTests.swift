import HermesCollector
import HermesWire
import Testing

/// The ``CrashGroupStorage`` contract, held by every store: SQLite always, PostgreSQL when a
/// server is given (always in CI).
struct CrashGroupStorageTests {
    /// The start of a UTC day.
    static let day: Int64 = 1_795_392_000_000
    static let hour: Int64 = 3_600_000

    /// An `appCrash` record of the `hermes` namespace whose top app frame is `function`.
    static func crash(
        _ id: String, in function: String = "checkout", at createTime: Int64 = day, user: String? = "ann", device: String = "phone-1",
        version: String? = "1.0", signal: String = "SIGILL"
    ) throws -> IngestRecord {
        var extra: [String: JSONValue] = [RecordField.deviceID: .string(device), "signal": .string(signal)]
        extra[RecordField.userID] = user.map(JSONValue.string)
        extra[RecordField.appVersion] = version.map(JSONValue.string)
        let stack = """
            Crashed: \(signal) (code 2) at 0x7f213856df7f, thread 9
            0   libswiftCore.so  0x7f213856df7f  Swift._assertionFailure(_: Swift.StaticString) -> Swift.Never + 623
            1   Shop  0x5583\(id.utf8.count)a4ed600  Shop.\(function)() -> () + 48
            2   Shop  0x55839a4ecc1c  main + 2652
            """
        return IngestRecord(
            namespace: ConfigurationDocument.hermesNamespace, reportID: id, monitorType: MonitorType.appCrash, createTime: createTime,
            meta: try CollectorFixture.metaLine(
                id, namespace: ConfigurationDocument.hermesNamespace, type: MonitorType.appCrash, createTime: createTime, extra: extra),
            payload: Array(stack.utf8)
        )
    }

    static func store(_ records: [IngestRecord], in store: any CollectorStorage, receivedAt: Int64 = day) async throws {
        _ = try await store.store(IngestBatch(records: records, deviceID: "upload-device", batchID: "b", receivedAt: receivedAt))
    }

    /// Steps until one groups nothing (at most 100), and how many each grouped.
    static func groupAll(_ store: any CollectorStorage, limit: Int = 1_000) async throws -> [Int] {
        var steps: [Int] = []
        for _ in 0..<100 {
            steps.append(try await store.groupCrashes(limit: limit))
            if steps.last == 0 { break }
        }
        return steps
    }

    @Test(arguments: StorageKind.available)
    func groupingCountsEachCrashOnceAndSummarisesTheGroups(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given three checkout crashes (two users, one device without a user), one in
                // another function, a record of another type and a crash of another namespace
                try await Self.store(
                    [
                        try Self.crash("c1", at: Self.day + 3 * Self.hour, user: "ann", version: "1.9"),
                        try Self.crash("c2", at: Self.day + 1 * Self.hour, user: "bob", version: "1.10"),
                        try Self.crash("c3", at: Self.day + 2 * Self.hour, user: nil, device: "tablet", version: "1.9"),
                        try Self.crash("p1", in: "pay", at: Self.day + 5 * Self.hour, user: "ann", version: nil),
                        try CollectorStorageContractTests.record("other", namespace: "shop", type: MonitorType.appCrash),
                        try CollectorStorageContractTests.record("lag", namespace: ConfigurationDocument.hermesNamespace, type: MonitorType.appLag),
                    ], in: store)
                // When grouping runs, and runs again
                #expect(try await Self.groupAll(store) == [4, 0])
                #expect(try await Self.groupAll(store) == [0])
                // Then two groups, the latest crash first, with their figures
                let groups = try await store.crashGroups(since: nil, until: nil, limit: 10)
                #expect(groups.map(\.title) == ["SIGILL in pay()", "SIGILL in checkout()"])
                #expect(groups.map(\.culprit) == ["Shop.pay() -> ()", "Shop.checkout() -> ()"])
                let checkout = try #require(groups.last)
                #expect(checkout.count == 3)
                #expect(checkout.usersAffected == 3)
                #expect(checkout.firstSeen == Self.day + Self.hour)
                #expect(checkout.lastSeen == Self.day + 3 * Self.hour)
                #expect(checkout.appVersions == ["1.9", "1.10"])
                #expect(checkout.signature == (try CrashSignature(meta: ["signal": "SIGILL"], payload: Self.crash("x").payload)).digest)
                #expect(groups.first?.appVersions == [])
                #expect(groups.first?.usersAffected == 1)
                #expect(try await store.crashGroups(since: nil, until: nil, limit: 1).map(\.title) == ["SIGILL in pay()"])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func windowCountsItsCrashesButFirstSeenIsTheFirstEver(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                try await Self.store(
                    [
                        try Self.crash("c1", at: Self.day, version: "1.0"),
                        try Self.crash("c2", at: Self.day + 2 * Self.hour, user: "bob", version: "2.0"),
                        try Self.crash("c3", at: Self.day + 3 * Self.hour, user: "cy", version: "2.0"),
                    ], in: store)
                _ = try await Self.groupAll(store)
                // When the window leaves the first crash and the last out
                let groups = try await store.crashGroups(since: Self.day + Self.hour, until: Self.day + 3 * Self.hour, limit: 10)
                // Then it counts the middle one, and first seen is still the first crash's
                #expect(groups.count == 1)
                #expect(groups.first?.count == 1)
                #expect(groups.first?.usersAffected == 1)
                #expect(groups.first?.appVersions == ["2.0"])
                #expect(groups.first?.firstSeen == Self.day)
                #expect(groups.first?.lastSeen == Self.day + 2 * Self.hour)
                #expect(try await store.crashGroups(since: Self.day + 4 * Self.hour, until: nil, limit: 10) == [])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func groupDetailHasTheLatestCrashAndBuckets(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                try await Self.store(
                    [
                        try Self.crash("c1", at: Self.day + 10),
                        try Self.crash("c2", at: Self.day + 20),
                        try Self.crash("c3", at: Self.day + 2 * Self.hour + 5),
                        try Self.crash("p1", in: "pay", at: Self.day + 9 * Self.hour),
                    ], in: store)
                _ = try await Self.groupAll(store)
                let checkout = try #require(try await store.crashGroups(since: nil, until: nil, limit: 10).last)
                // When the group is read with hourly buckets
                let detail = try #require(try await store.crashGroup(signature: checkout.signature, since: nil, until: nil, bucket: Self.hour))
                // Then it has its summary, its latest record with the stack, and the non-empty hours
                #expect(detail.summary == checkout)
                #expect(detail.latest?.reportID == "c3")
                #expect(detail.latest?.payload == (try Self.crash("c3").payload))
                #expect(detail.buckets == [CrashBucket(start: Self.day, count: 2), CrashBucket(start: Self.day + 2 * Self.hour, count: 1)])
                // And a window before the last crash has the one before it as its latest
                let earlier = try await store.crashGroup(signature: checkout.signature, since: nil, until: Self.day + Self.hour, bucket: Self.hour)
                #expect(earlier?.latest?.reportID == "c2")
                #expect(earlier?.summary.count == 2)
                #expect(try await store.crashGroup(signature: "unknown", since: nil, until: nil, bucket: Self.hour) == nil)
                let error = await #expect(throws: CollectorError.self) {
                    _ = try await store.crashGroup(signature: checkout.signature, since: nil, until: nil, bucket: 0)
                }
                #expect(error?.code == .invalidQuery)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func groupingResumesAfterReopening(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            // Given five crashes, two of them grouped before the store closed
            try await database.withStore { store in
                try await Self.store((1...5).map { try Self.crash("c\($0)", at: Self.day + Int64($0)) }, in: store)
                #expect(try await store.groupCrashes(limit: 2) == 2)
            }
            // When another store object opens the database
            try await database.withStore { store throws in
                // Then it groups the other three, and no more
                #expect(try await Self.groupAll(store, limit: 2) == [2, 1, 0])
                #expect(try await store.crashGroups(since: nil, until: nil, limit: 10).map(\.count) == [5])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func crashReceivedEarlierButStoredAfterGroupingMovedOnIsGrouped(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given a crash received at noon, grouped
                try await Self.store([try Self.crash("late")], in: store, receivedAt: Self.day + 12 * Self.hour)
                #expect(try await Self.groupAll(store) == [1, 0])
                // When a crash received a minute earlier is committed only now
                try await Self.store([try Self.crash("early")], in: store, receivedAt: Self.day + 12 * Self.hour - 60_000)
                // Then it is grouped too
                #expect(try await Self.groupAll(store) == [1, 0])
                #expect(try await store.crashGroups(since: nil, until: nil, limit: 10).map(\.count) == [2])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func retentionRemovesTheMembersOfTheDaysItRemoves(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                try await Self.store([try Self.crash("old", at: Self.day - 10 * UTCDay.milliseconds), try Self.crash("new")], in: store)
                _ = try await Self.groupAll(store)
                _ = try await store.removeDays(before: Self.day - UTCDay.milliseconds)
                let groups = try await store.crashGroups(since: nil, until: nil, limit: 10)
                #expect(groups.map(\.count) == [1])
                #expect(groups.first?.firstSeen == Self.day - 10 * UTCDay.milliseconds)
            }
        }
    }
}
