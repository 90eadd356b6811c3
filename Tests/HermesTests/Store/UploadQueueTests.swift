import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

/// Claiming batches out of the store: rows in flight are held in memory, never written.
struct UploadQueueTests {
    private static func request(maxItems: Int = 100, maxBytes: Int = 1 << 20) -> RecordStore.BatchRequest {
        .init(namespace: "JZ", table: .meta, maxItems: maxItems, maxBytes: maxBytes, excludedTypes: [])
    }

    private func filledClient(_ harness: Harness, records: Int) async throws -> (HermesClient, [String]) {
        let client = try harness.quietClient(transport: FakeCollector().transport)
        let ids = (0..<records).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()
        return (client, ids)
    }

    @Test func aSecondClaimSkipsTheRowsInFlightAndAReleasedBatchIsClaimedAgain() async throws {
        // Given 5 stored records
        let harness = Harness()
        let (client, ids) = try await filledClient(harness, records: 5)

        // When 3 are claimed, then the rest, then the first batch is released and claimed again
        let (first, second, again) = try await client.writer.perform { store in
            let first = try store.claimBatch(Self.request(maxItems: 3), batchID: "b1").0
            let second = try store.claimBatch(Self.request(), batchID: "b2").0
            store.releaseBatch(first)
            let again = try store.claimBatch(Self.request(), batchID: "b3").0
            return (first, second, again)
        }
        await client.shutdown()

        // Then the claims never overlap, oldest first, and releasing wrote nothing
        #expect(first.rows.map(\.reportID) == Array(ids[0..<3]))
        #expect(second.rows.map(\.reportID) == Array(ids[3..<5]))
        #expect(again.rows.map(\.reportID) == Array(ids[0..<3]))
        #expect(try harness.rows("meta").count == 5)
    }

    @Test func finishingABatchDeletesItsRowsAndNoOther() async throws {
        let harness = Harness()
        let (client, ids) = try await filledClient(harness, records: 4)

        let remaining = try await client.writer.perform { store in
            let batch = try store.claimBatch(Self.request(maxItems: 2), batchID: "b1").0
            _ = try store.claimBatch(Self.request(maxItems: 1), batchID: "b2")
            try store.finishBatch(batch, namespace: "JZ")
            return store.rowCount("JZ")
        }
        await client.shutdown()

        #expect(remaining == 2)
        #expect(try harness.rows("meta").map { $0["report_id"] as String } == Array(ids[2..<4]))
    }

    @Test func theByteLimitEndsABatchAndARowAloneOverItIsDeletedAsOversize() async throws {
        // Given three rows, the second too large to ever be sent within the limit
        let harness = Harness()
        let client = try harness.quietClient(transport: FakeCollector().transport)
        let small1 = client.send(type: "pay", prefix: "JZ", meta: ["s": "a"]).reportID
        let big = client.send(type: "pay", prefix: "JZ", meta: ["s": .string(String(repeating: "b", count: 2_000))]).reportID
        let small2 = client.send(type: "pay", prefix: "JZ", meta: ["s": "c"]).reportID
        try await client.flush()
        let limit = try harness.rows("meta").map { $0["size"] as Int }.filter { $0 < 1_000 }.max()! + 10

        // When batches are claimed within that byte limit
        let claims = try await client.writer.perform { store in
            try (0..<3).map { try store.claimBatch(Self.request(maxBytes: limit), batchID: "b\($0)") }
        }
        await client.shutdown()

        // Then the first batch stops before the large row, which is then deleted on its own
        #expect(claims.map { $0.0.rows.map(\.reportID) } == [[small1!], [], [small2!]])
        #expect(claims.map(\.oversize) == [0, 1, 0])
        #expect(try !harness.rows("meta").map { $0["report_id"] as String }.contains(big!))
    }

    @Test func aStoreFromTheEarlierSchemaMigratesAndItsRowsInFlightAreSent() async throws {
        // Given a store made by the earlier schema, one row marked in flight by a run that died
        let harness = Harness()
        try FileManager.default.createDirectory(at: harness.directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: harness.databasePath)
        try StoreSchema.migrator.migrate(queue, upTo: "journal")
        try await queue.write { db in
            for (index, state) in [0, 1].enumerated() {
                let meta = #"{"REPORT_ID":"r\#(index)","NAMESPACE":"JZ","MONITOR_TYPE":"JZ-pay","CREATE_TIME":1}"#
                try db.execute(
                    sql: """
                        INSERT INTO meta (report_id, namespace, monitor_type, is_biz, created_time, app_version, meta, size, state, batch_id)
                        VALUES (?, 'JZ', 'JZ-pay', 1, ?, '1.2.0', ?, ?, ?, ?)
                        """, arguments: ["r\(index)", harness.now, meta, meta.utf8.count, state, state == 1 ? "died" : nil])
            }
        }
        try queue.close()

        // When a client opens it and uploads
        let collector = FakeCollector()
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        let summary = await client.upload()["JZ"]
        await client.shutdown()

        // Then both rows reached the collector and left the store
        #expect(summary?.recordsSent == 2)
        #expect(collector.storedIDs("JZ") == ["r0", "r1"])
        #expect(try harness.rows("meta").isEmpty)
    }
}
