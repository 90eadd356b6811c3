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
        var seen = Set<[String]>()
        let unique = batch.records.filter { seen.insert([$0.namespace, $0.reportID]).inserted }
        let sorted = unique.sorted {
            Key(namespace: $0.namespace, reportID: $0.reportID, createTime: $0.createTime)
                < Key(namespace: $1.namespace, reportID: $1.reportID, createTime: $1.createTime)
        }
        for record in sorted {
            namespaces.append(record.namespace)
            reportIDs.append(record.reportID)
            monitorTypes.append(record.monitorType)
            createTimes.append(record.createTime)
            metas.append(String(decoding: record.meta, as: UTF8.self))
            hasPayloads.append(record.payload != nil)
            payloads.append(ByteBuffer(bytes: record.payload ?? []))
        }
    }

    private struct Key: Comparable {
        var namespace: String
        var reportID: String
        var createTime: Int64

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.namespace, lhs.reportID, lhs.createTime) < (rhs.namespace, rhs.reportID, rhs.createTime)
        }
    }
}
