import Foundation
import HermesCollector
import HermesWire
import Testing

/// The ``CollectorStorage`` contract, held by every store: SQLite always, PostgreSQL when a
/// server is given (always in CI).
struct CollectorStorageContractTests {
    static func record(
        _ id: String, namespace: String = "shop", type: String = "order", createTime: Int64 = 1_795_400_000_000, payload: [UInt8]? = nil
    ) throws -> IngestRecord {
        IngestRecord(
            namespace: namespace, reportID: id, monitorType: type, createTime: createTime,
            meta: try CollectorFixture.metaLine(id, namespace: namespace, type: type, createTime: createTime), payload: payload
        )
    }

    static func batch(_ records: [IngestRecord], batchID: String = "b", receivedAt: Int64 = 5) -> IngestBatch {
        IngestBatch(records: records, deviceID: "d", batchID: batchID, receivedAt: receivedAt)
    }

    @Test(arguments: StorageKind.available)
    func storedRecordsReadBackAndSurviveReopening(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            // Given a batch stored by one store object
            let outcome = try await database.withStore { store in
                try await store.store(Self.batch([try Self.record("r1", payload: [9, 8]), try Self.record("r2")]))
            }
            #expect(outcome == StoreOutcome(stored: 2, duplicates: 0))
            // When another store object opens the same database
            try await database.withStore { store in
                // Then the records read back whole, and a resend counts as duplicates
                let events = try await store.events(EventQuery())
                #expect(events.map(\.reportID) == ["r1", "r2"])
                #expect(events.map(\.payload) == [[9, 8], nil])
                #expect(events.first?.deviceID == "d")
                #expect(events.first?.batchID == "b")
                #expect(events.first?.receivedAt == 5)
                #expect(events.first?.meta == (try JSONValue(parsing: Self.record("r1").meta)))
                #expect(try await store.store(Self.batch([try Self.record("r1"), try Self.record("r3")])) == StoreOutcome(stored: 1, duplicates: 1))
                #expect(try await store.count(EventQuery()) == 3)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func metaLineWithTextBeyondASCIIReadsBackWhole(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given a meta line with text beyond ASCII and an escaped NUL
                let meta = try CollectorFixture.metaLine(
                    "r1", namespace: "shop", createTime: 1_795_400_000_000, extra: ["note": .string("café 漢字 🚀 \u{0}")])
                #expect(String(decoding: meta, as: UTF8.self).contains("\\u0000"))
                let record = IngestRecord(
                    namespace: "shop", reportID: "r1", monitorType: "order", createTime: 1_795_400_000_000, meta: meta, payload: nil)
                // When it is stored
                #expect(try await store.store(Self.batch([record])) == StoreOutcome(stored: 1, duplicates: 0))
                // Then it reads back as it was sent
                let events = try await store.events(EventQuery())
                #expect(try events.first?.meta.jsonBytes() == meta)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func recordRepeatedWithinOneBatchIsStoredOnceAndTheFirstWins(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                let batch = Self.batch([try Self.record("r1", payload: [1]), try Self.record("r1", payload: [2])])
                #expect(try await store.store(batch) == StoreOutcome(stored: 1, duplicates: 1))
                #expect(try await store.events(EventQuery()).map(\.payload) == [[1]])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func sameReportIDInAnotherNamespaceIsAnotherRecord(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                let batch = Self.batch([try Self.record("r1"), try Self.record("r1", namespace: "other")])
                #expect(try await store.store(batch) == StoreOutcome(stored: 2, duplicates: 0))
                #expect(try await store.count(EventQuery(namespace: "other")) == 1)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func recordsFarFromTodayAreStoredAndDeduplicated(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Times no day partition covers: 1970, and 2100
                let old = try Self.record("old", createTime: 7)
                let future = try Self.record("future", createTime: 4_102_444_800_000)
                #expect(try await store.store(Self.batch([old, future])) == StoreOutcome(stored: 2, duplicates: 0))
                #expect(try await store.store(Self.batch([old, future])) == StoreOutcome(stored: 0, duplicates: 2))
                #expect(try await store.events(EventQuery()).map(\.reportID) == ["old", "future"])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func eventsAreFilteredOrderedByCreateTimeThenArrivalAndLimited(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given records of two types, two sharing a time, stored in two batches
                let base: Int64 = 1_795_400_000_000
                _ = try await store.store(
                    Self.batch([
                        try Self.record("c", createTime: base + 20),
                        try Self.record("crash", type: "appCrash", createTime: base + 5),
                    ]))
                _ = try await store.store(
                    Self.batch([
                        try Self.record("a", createTime: base + 10),
                        try Self.record("b", createTime: base + 20),
                    ]))
                // Then reads order by time, then by arrival; filters and the limit apply
                #expect(try await store.events(EventQuery()).map(\.reportID) == ["crash", "a", "c", "b"])
                #expect(try await store.events(EventQuery(monitorType: "order")).map(\.reportID) == ["a", "c", "b"])
                #expect(try await store.events(EventQuery(since: base + 10, until: base + 20)).map(\.reportID) == ["a"])
                #expect(try await store.events(EventQuery(limit: 2)).map(\.reportID) == ["crash", "a"])
                #expect(try await store.count(EventQuery(namespace: "shop", monitorType: "order", since: base + 11)) == 2)
                #expect(try await store.count(EventQuery(namespace: "nobody")) == 0)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func configurationSavedByOneStoreIsLoadedByAnother(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            let document = ConfigurationDocument(revision: 3, namespaces: ["shop": NamespaceConfiguration(maxItem: 20)])
            try await database.withStore { store in
                #expect(try await store.loadConfiguration() == nil)
                try await store.saveConfiguration(document)
            }
            try await database.withStore { store throws in
                #expect(try await store.loadConfiguration() == document)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func updateEditsTheSavedDocumentAndAFailedEditSavesNothing(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                let served = ConfigurationDocument(revision: 1, namespaces: [:])
                // With nothing saved, the edit starts from the served document
                let first = try await store.updateConfiguration(from: served) { document throws(CollectorError) in
                    ConfigurationDocument(revision: document.revision + 1, namespaces: ["a": NamespaceConfiguration()])
                }
                #expect(first.revision == 2)
                // Then from the saved one, whatever is served
                let second = try await store.updateConfiguration(from: served) { document throws(CollectorError) in
                    var next = document
                    next.revision += 1
                    next.namespaces["b"] = NamespaceConfiguration()
                    return next
                }
                #expect(second.revision == 3)
                #expect(Set(second.namespaces.keys) == ["a", "b"])
                // An edit that throws leaves the saved document as it was
                await #expect(throws: CollectorError.self) {
                    try await store.updateConfiguration(from: served) { _ throws(CollectorError) in
                        throw CollectorError(.namespaceNotFound, "no such namespace")
                    }
                }
                #expect(try await store.loadConfiguration() == second)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func cursorPagesNeitherRepeatNorSkipRecordsSharingATimestamp(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given 25 records on 3 timestamps, stored in 5 batches
                let base: Int64 = 1_795_400_000_000
                let records = try (0..<25).map { try Self.record("r\($0)", createTime: base + Int64($0 % 3)) }
                for start in stride(from: 0, to: 25, by: 5) {
                    _ = try await store.store(Self.batch(Array(records[start..<start + 5])))
                }
                // When they are read 4 at a time, each page after the last one's cursor
                var query = EventQuery(namespace: "shop", limit: 4)
                var seen: [StoredEvent] = []
                for _ in 0..<10 {
                    let page = try await store.events(query)
                    seen += page
                    guard let next = page.next else { break }
                    query.after = next
                }
                // Then every record came once, in (createTime, id) order
                #expect(seen.count == 25)
                #expect(Set(seen.map(\.reportID)).count == 25)
                #expect(seen.map(\.createTime) == seen.map(\.createTime).sorted())
                #expect(try await store.events(EventQuery(limit: 25)).map(\.reportID) == seen.map(\.reportID))
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func aPageStopsAtItsByteBoundAndItsCursorLeadsToTheRest(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given three records of 1.5 MiB payload each, within a 4 MiB page bound
                let base: Int64 = 1_795_400_000_000
                let payload = [UInt8](repeating: 7, count: 3 << 19)
                let records = try (0..<3).map { try Self.record("big\($0)", createTime: base + Int64($0), payload: payload) }
                _ = try await store.store(Self.batch(records))
                // When a page of up to 10 is read
                let first = try await store.events(EventQuery(namespace: "shop", limit: 10))
                // Then it holds the two that fit, with a cursor to the third
                #expect(first.map(\.reportID) == ["big0", "big1"])
                let next = try #require(first.next)
                let second = try await store.events(EventQuery(namespace: "shop", after: next, limit: 10))
                #expect(second.map(\.reportID) == ["big2"])
                #expect(second.next == nil)
                // And a record larger than the bound alone still makes a page of one
                #expect(EventPage.cut(sizes: [5 << 20, 10], limit: 10) == (count: 1, hasMore: true))
                #expect(EventPage.cut(sizes: [1, 2], limit: 2) == (count: 2, hasMore: false))
                #expect(EventPage.cut(sizes: [1, 2, 3], limit: 2) == (count: 2, hasMore: true))
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func retentionRemovesWholeDaysEndingBeforeTheCutoffOnly(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                // Given records three, two and one day back (yesterday has its partition on
                // PostgreSQL, the older days are in the default one), and at today's first moment
                let today = UTCDay.start(of: Int64(Date().timeIntervalSince1970 * 1000))
                let day = UTCDay.milliseconds
                let old = try [3, 2, 1].flatMap { back in
                    try [0, day - 1].map { offset in try Self.record("d\(back)-\(offset)", createTime: today - Int64(back) * day + offset) }
                }
                _ = try await store.store(Self.batch(old + [try Self.record("today", createTime: today)]))
                // When the cutoff falls an hour into today
                let outcome = try await store.removeDays(before: today + 3_600_000)
                // Then the three whole days went, today stayed
                #expect(outcome.recordsRemoved == 6)
                #expect(outcome.daysDropped == (kind == .postgres ? 1 : 0))
                #expect(try await store.events(EventQuery()).map(\.reportID) == ["today"])
                #expect(try await store.removeDays(before: today + 3_600_000) == RetentionOutcome(daysDropped: 0, recordsRemoved: 0))
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func storageBytesTellsTheSizeOfTheStore(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Self.batch(try (0..<50).map { try Self.record("r\($0)") }))
                #expect(try #require(try await store.storageBytes()) > 0)
            }
        }
    }

    /// Two collectors on one database (for SQLite, one store: a SQLite file has one collector)
    /// receive the same batches at the same moment: each record is stored once, and the answers
    /// add up.
    @Test(arguments: StorageKind.available)
    func concurrentDuplicateBatchesFromTwoStoresStoreEachRecordOnce(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { first in
                guard kind != .sqlite else { return try await Self.storeConcurrently(first, first) }
                try await database.withStore { second in try await Self.storeConcurrently(first, second) }
            }
        }
    }

    private static func storeConcurrently(_ first: any CollectorStorage, _ second: any CollectorStorage) async throws {
        // Given 30 batches of 50 records, each overlapping the next by half, in shuffled order
        let batches = try (0..<30).map { index in
            batch(
                try (index * 25..<index * 25 + 50).map { try record("r\($0)", createTime: 1_795_400_000_000 + Int64($0 % 7)) }.shuffled(),
                batchID: "b\(index)")
        }
        // When both stores store every batch at once
        let outcomes = try await withThrowingTaskGroup(of: StoreOutcome.self) { group in
            for batch in batches {
                group.addTask { try await first.store(batch) }
                group.addTask { try await second.store(batch) }
            }
            return try await group.reduce(into: [StoreOutcome]()) { $0.append($1) }
        }
        // Then every record is stored once and the answers count each once as stored
        let unique = 29 * 25 + 50
        #expect(outcomes.reduce(0) { $0 + $1.stored } == unique)
        #expect(outcomes.allSatisfy { $0.stored + $0.duplicates == 50 })
        #expect(try await first.count(EventQuery()) == unique)
        #expect(Set(try await second.events(EventQuery(limit: EventQuery.maximumLimit)).map(\.reportID)).count == unique)
    }
}
