import HermesCollector
import HermesWire
import Testing

/// What the console keeps and reads, the same on every store.
struct ConsoleStorageContractTests {
    typealias Contract = CollectorStorageContractTests

    static func record(_ id: String, createTime: Int64, user: String, extra: [String: JSONValue] = [:]) throws -> IngestRecord {
        IngestRecord(
            namespace: "shop", reportID: id, monitorType: "order", createTime: createTime,
            meta: try CollectorFixture.metaLine(
                id, createTime: createTime, extra: ["USER_ID": .string(user), "APP_VERSION": "1.0"].merging(extra) { $1 }), payload: nil)
    }

    @Test(arguments: StorageKind.available)
    func newestFirstPagesNeitherRepeatNorSkip(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // 25 records, several sharing a CREATE_TIME, stored in two batches out of time order
                let records = try (0..<25).map {
                    try Self.record("r\($0)", createTime: 1_795_400_000_000 + Int64($0 % 6), user: $0 % 2 == 0 ? "u-even" : "u-odd")
                }
                _ = try await store.store(Contract.batch(Array(records[12...]), batchID: "b2"))
                _ = try await store.store(Contract.batch(Array(records[..<12]), batchID: "b1"))
                var query = EventQuery(limit: 7)
                query.newestFirst = true
                var seen: [StoredEvent] = []
                for _ in 0..<10 {
                    let page = try await store.events(query)
                    seen += page
                    guard let next = page.next else { break }
                    query.after = next
                }
                #expect(seen.count == 25)
                #expect(Set(seen.map(\.reportID)).count == 25)
                let order = seen.map { ($0.createTime, $0.id) }
                #expect(zip(order, order.dropFirst()).allSatisfy { $0 > $1 })
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func metaAndDeviceFiltersMatchExactly(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(
                    Contract.batch([
                        try Self.record("a", createTime: 1, user: "ann", extra: ["plan": "pro", "items": 4]),
                        try Self.record("b", createTime: 2, user: "bob", extra: ["plan": "free", "items": 4]),
                        try Self.record("c", createTime: 3, user: "ann", extra: ["plan": "free"]),
                    ]))
                _ = try await store.store(
                    IngestBatch(records: [try Self.record("d", createTime: 4, user: "ann")], deviceID: "other", batchID: "x", receivedAt: 9))
                func ids(_ configure: (inout EventQuery) throws -> Void) async throws -> [String] {
                    var query = EventQuery()
                    try configure(&query)
                    return try await store.events(query).map(\.reportID)
                }
                #expect(try await ids { $0.metaEquals = [try MetaMatch(key: "USER_ID", value: "ann")] } == ["a", "c", "d"])
                #expect(
                    try await ids { $0.metaEquals = [try MetaMatch(key: "USER_ID", value: "ann"), try MetaMatch(key: "plan", value: "free")] } == [
                        "c"
                    ])
                #expect(try await ids { $0.metaEquals = [try MetaMatch(key: "items", value: "4")] } == ["a", "b"])
                #expect(try await ids { $0.metaEquals = [try MetaMatch(key: "missing", value: "x")] } == [])
                #expect(try await ids { $0.deviceID = "other" } == ["d"])
                #expect(throws: CollectorError.self) { try MetaMatch(key: "a\"b", value: "x") }
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func theMinuteRollupCountsNewRecordsOnly(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                let minute: Int64 = 29_923_333
                let first = [try Contract.record("r1"), try Contract.record("r2"), try Contract.record("p1", namespace: "pay", type: "charge")]
                _ = try await store.store(Contract.batch(first, receivedAt: minute * 60_000 + 10))
                // A resend of r1 beside a new record, later in the same minute, then one record the next minute
                _ = try await store.store(
                    Contract.batch([try Contract.record("r1"), try Contract.record("r3")], receivedAt: minute * 60_000 + 59_000))
                _ = try await store.store(Contract.batch([try Contract.record("r4")], receivedAt: (minute + 1) * 60_000))
                let rows = try await store.recordMinutes(since: minute)
                #expect(
                    Set(rows) == [
                        RecordMinute(minute: minute, namespace: "pay", monitorType: "charge", records: 1),
                        RecordMinute(minute: minute, namespace: "shop", monitorType: "order", records: 3),
                        RecordMinute(minute: minute + 1, namespace: "shop", monitorType: "order", records: 1),
                    ])
                #expect(try await store.recordMinutes(since: minute + 1).count == 1)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func arrivalsAreReadByReceiveTime(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Contract.batch([try Contract.record("old", createTime: 9_000)], receivedAt: 100))
                _ = try await store.store(Contract.batch([try Contract.record("new", createTime: 1)], receivedAt: 200))
                _ = try await store.store(Contract.batch([try Contract.record("other", namespace: "pay")], receivedAt: 300))
                #expect(try await store.arrivals(EventQuery(), receivedSince: 150).map(\.reportID) == ["new", "other"])
                #expect(try await store.arrivals(EventQuery(namespace: "shop"), receivedSince: 0).map(\.reportID) == ["old", "new"])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func usersSessionsAndHistoryAreShared(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                try await store.saveConsoleUser(ConsoleUser(name: "ada", role: .editor, passwordHash: "h1", createdAt: 1))
                try await store.createConsoleSession(
                    ConsoleSession(tokenHash: "t1", userName: "ada", role: .viewer, csrfToken: "c", expiresAt: 1_000), now: 10)
                try await store.appendConfigurationChange(
                    ConfigurationChange(namespace: "shop", revision: 1, author: "ada", changedAt: 5, before: nil, after: ["maxItem": 5]))
                try await store.appendConfigurationChange(
                    ConfigurationChange(namespace: "pay", revision: 2, author: "ada", changedAt: 6, before: ["maxItem": 5], after: nil))
            }
            // Another store object on the same database, as a second collector
            try await database.withStore { store in
                // The role is the user's now, not the session's when made
                try await store.saveConsoleUser(ConsoleUser(name: "ada", role: .admin, passwordHash: "h2", createdAt: 1))
                #expect(try await store.consoleSession(tokenHash: "t1", now: 999)?.role == .admin)
                #expect(try await store.consoleSession(tokenHash: "t1", now: 1_000) == nil)
                #expect(try await store.consoleUser(named: "ada")?.passwordHash == "h2")
                let changes = try await store.configurationChanges(namespace: nil, limit: 10)
                #expect(changes.map(\.namespace) == ["pay", "shop"])
                #expect(changes.first?.before == ["maxItem": 5])
                #expect(changes.first?.after == nil)
                #expect(try await store.configurationChanges(namespace: "shop", limit: 10).map(\.revision) == [1])
                #expect(try await store.configurationChange(id: changes[1].id)?.after == ["maxItem": 5])
                #expect(try await store.removeConsoleUser(named: "ada"))
                #expect(try await store.consoleSession(tokenHash: "t1", now: 10) == nil)
                #expect(try await !store.removeConsoleUser(named: "ada"))
            }
        }
    }
}
