import Foundation
import HermesCollector
import HermesWire
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Erasing a user's or a device's records, on every store, across day partitions, while
/// uploads go on; and the admin API that does it.
struct ErasureTests {
    typealias Records = ConsoleStorageContractTests
    typealias Contract = CollectorStorageContractTests
    typealias Crashes = CrashGroupStorageTests

    @Test(arguments: StorageKind.available)
    func aUsersRecordsGoFromEveryDayWhileOtherUploadsAreStored(kind: StorageKind) async throws {
        let today = UTCDay.start(of: Int64(Date().timeIntervalSince1970 * 1000))
        let day = UTCDay.milliseconds
        // Today, yesterday (its own partition on PostgreSQL) and ten days back (the default one)
        let ann = try [0, 1, 10].flatMap { back in
            try (0..<3).map { try Records.record("ann-\(back)-\($0)", createTime: today - Int64(back) * day + Int64($0), user: "ann") }
        }
        let crash = try Crashes.crash("ann-crash", at: today, user: "ann")
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Contract.batch(ann + [try Records.record("bob-0", createTime: today, user: "bob")]))
                try await Crashes.store([crash, try Crashes.crash("bob-crash", at: today, user: "bob")], in: store)
                _ = try await Crashes.groupAll(store)
                // Bob's uploads go on while Ann's records are erased
                let removed = try await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask {
                        for batch in 1...20 {
                            let records = try (0..<5).map { try Records.record("bob-\(batch)-\($0)", createTime: today + Int64(batch), user: "bob") }
                            _ = try await store.store(Contract.batch(records, batchID: "bob-\(batch)"))
                        }
                        return 0
                    }
                    group.addTask { try await store.erase(.user("ann")) }
                    return try await group.reduce(0, +)
                }
                #expect(removed == ann.count + 1)
                var query = EventQuery(limit: EventQuery.maximumLimit)
                query.userID = "ann"
                #expect(try await store.events(query).isEmpty)
                query.userID = "bob"
                #expect(try await store.events(query).count == 1 + 1 + 100)
                let groups = try await store.crashGroups(since: nil, until: nil, limit: 10)
                #expect(groups.map(\.count) == [1])
                #expect(groups.map(\.usersAffected) == [1])
                #expect(try await store.erase(.user("ann")) == 0)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func aDevicesRecordsAndItsQueueGo(kind: StorageKind) async throws {
        let time = UTCDay.start(of: Int64(Date().timeIntervalSince1970 * 1000))
        let health = try DeliveryHealthRollupTests.health("h", at: time, lost: [:], queue: 4, device: "phone-9")
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(
                    IngestBatch(
                        records: [try Records.record("a", createTime: time, user: "ann"), health], deviceID: "phone-9", batchID: "p",
                        receivedAt: time))
                _ = try await store.store(Contract.batch([try Records.record("b", createTime: time, user: "ann")]))
                #expect(try await store.queuedOnDevices(reportedSince: 0) == QueuedOnDevices(devices: 1, records: 4))
                #expect(try await store.erase(.device("phone-9")) == 2)
                #expect(try await store.events(EventQuery()).map(\.reportID) == ["b"])
                #expect(try await store.queuedOnDevices(reportedSince: 0) == QueuedOnDevices(devices: 0, records: 0))
            }
        }
    }

    @Test func theAdminAPIErasesAnswersHowManyAndLogsAnAuditLine() async throws {
        let recorder = RequestObservingMiddlewareTests.Recorder()
        let fixture = try CollectorFixture()
        _ = try await fixture.storage.store(
            Contract.batch([
                try Records.record("a", createTime: 1, user: "ann smith"), try Records.record("b", createTime: 2, user: "ann smith"),
                try Records.record("c", createTime: 3, user: "bob"),
            ]))
        let app = try await buildApplication(configuration: fixture.configuration, storage: fixture.storage, logger: recorder.logger)
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/v1/admin/users/ann%20smith", method: .delete).status == .unauthorized)
            let answer = try await client.admin("/v1/admin/users/ann%20smith", method: .delete)
            #expect(answer.status == .ok)
            #expect(try answer.json() == ["subject": "user", "id": "ann smith", "removed": 2])
            #expect(try await client.admin("/v1/admin/devices/d", method: .delete).json()["removed"] == 1)
        }
        #expect(try await fixture.storedEvents().isEmpty)
        let audit = recorder.entries.withLock { $0 }.filter { $0.message == "records erased" }
        #expect(audit.map { $0.metadata["id"]?.description } == ["ann smith", "d"])
        #expect(audit.map { $0.metadata["removed"]?.description } == ["2", "1"])
    }
}
