import Foundation
import HermesCollector
import HermesWire
import Testing

/// The overview's delivery health rollups as each store keeps them from the `sdkHealth` records
/// it stores: losses summed once per record, each device's latest queue depth.
struct DeliveryHealthRollupTests {
    typealias Contract = CollectorStorageContractTests

    static func health(_ id: String, at time: Int64, lost: [String: JSONValue], queue: Int64, device: String? = nil) throws -> IngestRecord {
        var meta: [String: JSONValue] = ["APP_VERSION": "1.0", "lost": .object(lost), "queueDepth": .int(queue)]
        meta["DEVICE_ID"] = device.map(JSONValue.string)
        return IngestRecord(
            namespace: RecordNamespace.monitoring, reportID: id, monitorType: MonitorType.sdkHealth, createTime: time,
            meta: try CollectorFixture.metaLine(
                id, namespace: RecordNamespace.monitoring, type: MonitorType.sdkHealth, createTime: time, extra: meta),
            payload: nil)
    }

    @Test(arguments: StorageKind.available)
    func lossesCountOncePerRecordAndEachDeviceKeepsItsLatestQueue(kind: StorageKind) async throws {
        let time = UTCDay.start(of: Int64(Date().timeIntervalSince1970 * 1000))
        let first = try Self.health("h1", at: time, lost: ["evicted": 3], queue: 5, device: "dev-a")
        // No DEVICE_ID: the upload's device id ("d") stands in
        let second = try Self.health("h2", at: time + 1_000, lost: ["evicted": 2, "expired": 1, "zero": 0], queue: 7)
        // Older than dev-a's latest: its losses count, its queue does not
        let older = try Self.health("h3", at: time - 5_000, lost: ["evicted": 4], queue: 100, device: "dev-a")
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Contract.batch([first, second]))
                _ = try await store.store(Contract.batch([first, older], batchID: "resend"))
                let losses = try await store.deliveryLosses(sinceHour: (time - 3_600_000) / 3_600_000)
                    .sorted { $0.reason < $1.reason }
                #expect(
                    losses == [
                        DeliveryLoss(appVersion: "1.0", reason: "evicted", lost: 9), DeliveryLoss(appVersion: "1.0", reason: "expired", lost: 1),
                    ])
                #expect(try await store.deliveryLosses(sinceHour: time / 3_600_000 + 1) == [])
                #expect(try await store.queuedOnDevices(reportedSince: time - 10_000) == QueuedOnDevices(devices: 2, records: 12))
                #expect(try await store.queuedOnDevices(reportedSince: time + 500) == QueuedOnDevices(devices: 1, records: 7))
                _ = try await store.removeDays(before: time + UTCDay.milliseconds)
                #expect(try await store.deliveryLosses(sinceHour: 0) == [])
                #expect(try await store.queuedOnDevices(reportedSince: 0) == QueuedOnDevices(devices: 0, records: 0))
            }
        }
    }
}
