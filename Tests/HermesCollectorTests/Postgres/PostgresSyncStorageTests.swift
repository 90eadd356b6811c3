import HermesCollector
import HermesCollectorPostgres
import HermesWire
import Testing

/// What only the PostgreSQL sync store does; the shared contract is in `SyncStorageContractTests`.
@Suite(.enabled(if: StorageKind.available.contains(.postgres)))
struct PostgresSyncStorageTests {
    @Test func closingLetsTheApplyUnderWayFinishAndRefusesLaterOnesAtOnce() async throws {
        try await TestStorage.with(.postgres) { database in
            let store = try await database.openPostgresSyncStore()
            let rules = SyncStorageContractTests.rules
            // Given an apply under way when the store closes
            async let applied = store.apply(
                SyncStorageContractTests.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1, rules: rules,
                now: 1
            )
            async let closed: Void = store.close()
            // Then it finished (or was refused as closed), and a later call fails at once instead of waiting
            let outcome = try? await applied
            await closed
            #expect(outcome == nil || outcome?.revision == 1)
            await #expect {
                _ = try await store.liveRecords()
            } throws: { error in
                (error as? CollectorError)?.message == "could not read the records: the store is closed"
            }
        }
    }

    @Test func storesOpeningTogetherMigrateTheSyncTablesOnce() async throws {
        try await TestStorage.with(.postgres) { database in
            // When four sync stores open a fresh database at once, beside a collector store
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let store = try await database.openPostgresSyncStore()
                        await store.close()
                    }
                }
                try await group.waitForAll()
            }
            // Then one more finds them ready, and the collector's own tables migrate beside them
            let store = try await database.openPostgresSyncStore()
            let outcome = try await store.apply(
                SyncStorageContractTests.create(1, "teams", -1, ["name": "a"]), from: SyncIdentity(clientID: "d1"), schemaVersion: 1,
                rules: SyncStorageContractTests.rules, now: 1
            )
            #expect(outcome.revision == 1)
            await store.close()
            try await database.withStore { collector throws in #expect(try await collector.count(EventQuery()) == 0) }
        }
    }
}
