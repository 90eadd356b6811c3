import HermesCollector
import HermesCollectorPostgres
import HermesWire
import Testing

/// What only the PostgreSQL store does; the shared contract is in `CollectorStorageContractTests`.
@Suite(.enabled(if: StorageKind.available.contains(.postgres)))
struct PostgresCollectorStorageTests {
    @Test func rowsInTheDefaultPartitionMoveIntoTheirDayWhenItIsCreated() async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { store in
                let storage = try #require(store as? PostgresCollectorStorage)
                // Given a record 30 days ahead, beyond the partitions made at open
                let later: Int64 = PostgresCollectorStorage.now() + 30 * DayPartition.millisecondsPerDay
                let record = try CollectorStorageContractTests.record("later", createTime: later)
                #expect(try await storage.partitions().contains(DayPartition(containing: later)) == false)
                #expect(try await storage.store(CollectorStorageContractTests.batch([record])).stored == 1)
                // When that day's partition is made
                try await storage.ensurePartitions(around: later)
                // Then the record is in it, still read, and still a duplicate when resent
                #expect(try await storage.partitions().contains(DayPartition(containing: later)))
                #expect(try await storage.events(EventQuery()).map(\.reportID) == ["later"])
                #expect(try await storage.store(CollectorStorageContractTests.batch([record])) == StoreOutcome(stored: 0, duplicates: 1))
            }
        }
    }

    @Test func instancesOpeningTogetherMigrateOnce() async throws {
        try await TestStorage.with(.postgres) { database in
            // When four stores open a fresh database at once
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await database.withStore { store in _ = try await store.count(EventQuery()) } }
                }
                try await group.waitForAll()
            }
            // Then each could use it, and one more opens it as it is
            try await database.withStore { store throws in #expect(try await store.count(EventQuery()) == 0) }
        }
    }

    @Test func concurrentConfigurationChangesFromTwoStoresEachMakeARevision() async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { first in
                try await database.withStore { second in
                    // When two stores each add 10 namespaces at once
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<20 {
                            let store = index.isMultiple(of: 2) ? first : second
                            group.addTask {
                                _ = try await store.updateConfiguration(from: .builtIn) { document throws(CollectorError) in
                                    var next = document
                                    next.revision += 1
                                    next.namespaces["n\(index)"] = NamespaceConfiguration()
                                    return next
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    // Then no change was lost
                    let saved = try #require(try await first.loadConfiguration())
                    #expect(saved.revision == ConfigurationDocument.builtIn.revision + 20)
                    #expect(saved.namespaces.count == ConfigurationDocument.builtIn.namespaces.count + 20)
                }
            }
        }
    }

    @Test func malformedURLIsAStorageError() async {
        await #expect {
            try await PostgresCollectorStorage.open(url: "mysql://db/hermes", logger: TestStorage.logger)
        } throws: { error in
            (error as? CollectorError)?.code == .storageFailed
        }
    }

    @Test func unreachableDatabaseIsAStorageErrorWithinTheOpenTimeout() async {
        var options = PostgresCollectorStorage.Options()
        options.openTimeout = .milliseconds(500)
        let started = ContinuousClock.now
        await #expect {
            // Port 1 on the loopback: nothing listens there.
            try await PostgresCollectorStorage.open(
                url: "postgres://hermes@127.0.0.1:1/hermes?sslmode=disable", logger: TestStorage.logger, options: options)
        } throws: { error in
            (error as? CollectorError)?.code == .storageFailed
        }
        // Not forever: the pool alone would retry connecting without end. (Generous: on 2 busy
        // cores a full test run delays the 500 ms timer by seconds.)
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
