package import HermesCollector
package import NIOCore

/// A batch as the columns of one `INSERT … SELECT FROM unnest(…)`: each record once per
/// `(namespace, reportID)` (the first in packet order wins), rows sorted by the unique key so
/// that concurrent batches sharing records lock them in the same order and cannot deadlock.
///
/// Pure: built before the statement runs, the same for the store and the bench's raw insert.
package struct EventRows: Sendable {
    package var namespaces: [String] = []
    package var reportIDs: [String] = []
    package var monitorTypes: [String] = []
    package var createTimes: [Int64] = []
    package var metas: [String] = []
    package var hasPayloads: [Bool] = []
    package var payloads: [ByteBuffer] = []
    package var deviceID: String?
    package var batchID: String?
    package var receivedAt: Int64

    /// How many records the batch held, repeats included.
    package let recordCount: Int
    /// How many rows the statement inserts at most.
    package var count: Int { namespaces.count }

    package init(_ batch: IngestBatch) {
        deviceID = batch.deviceID
        batchID = batch.batchID
        receivedAt = batch.receivedAt
        recordCount = batch.records.count
        var seen = Set<Identity>(minimumCapacity: batch.records.count)
        let unique = batch.records.filter { seen.insert(Identity(namespace: $0.namespace, reportID: $0.reportID)).inserted }
        let sorted = unique.sorted {
            ($0.namespace, $0.reportID, $0.createTime) < ($1.namespace, $1.reportID, $1.createTime)
        }
        // Rows without a payload share one empty buffer (the column needs an element per row).
        let none = ByteBuffer()
        for record in sorted {
            namespaces.append(record.namespace)
            reportIDs.append(record.reportID)
            monitorTypes.append(record.monitorType)
            createTimes.append(record.createTime)
            metas.append(String(decoding: record.meta, as: UTF8.self))
            hasPayloads.append(record.payload != nil)
            payloads.append(record.payload.map { ByteBuffer(bytes: $0) } ?? none)
        }
    }

    /// What makes two records of a batch the same record.
    private struct Identity: Hashable {
        var namespace: String
        var reportID: String
    }
}
