package import Foundation
package import HermesCollector
package import HermesWire

/// What `hermes bench collector` sends: unique 100-record batches, every fifth one sent twice
/// (the copy right after it, so another uploader sends it at about the same moment), each as an
/// encoded upload body and as the `IngestBatch` the raw insert stores. All built before any clock
/// starts.
package struct CollectorWorkload {
    package static let recordsPerBatch = 100
    package static let duplicateEvery = 5
    package static let namespace = "hermes"

    /// The batches' upload bodies (v2, AES-GCM), by batch.
    package let bodies: [[UInt8]]
    /// The same batches as the collector decodes them, by batch.
    package let batches: [IngestBatch]
    /// The order batches are sent in, duplicates included.
    package let order: [Int]

    package var uniqueRecords: Int { batches.count * Self.recordsPerBatch }
    package var postedRecords: Int { order.count * Self.recordsPerBatch }

    package init(batches count: Int, cipher: AESGCMCipher, now: Int64) throws {
        var bodies: [[UInt8]] = []
        var batches: [IngestBatch] = []
        for batch in 0..<count {
            var lines: [[UInt8]] = []
            var records: [IngestRecord] = []
            for offset in 0..<Self.recordsPerBatch {
                let index = batch * Self.recordsPerBatch + offset
                let reportID = "bench-\(batch)-\(offset)"
                let createTime = now - Int64(index % 3_600_000)
                let meta: JSONValue = [
                    RecordField.reportID: .string(reportID), RecordField.namespace: .string(Self.namespace),
                    RecordField.monitorType: "appLag", RecordField.createTime: .int(createTime), RecordField.isBusiness: false,
                    "duration_ms": .int(Int64(250 + index % 900)), "scene": "FeedViewController", "thread": "main", "seq": .int(Int64(index)),
                ]
                let line = try meta.jsonBytes()
                lines.append(line)
                records.append(
                    IngestRecord(
                        namespace: Self.namespace, reportID: reportID, monitorType: "appLag", createTime: createTime, meta: line, payload: nil
                    ))
            }
            bodies.append(try WireFormat.v2(cipher).encode(Packet(kind: .meta, metaLines: lines)))
            batches.append(IngestBatch(records: records, deviceID: "bench-device", batchID: "bench-\(batch)", receivedAt: now))
        }
        self.bodies = bodies
        self.batches = batches
        order = (0..<count).flatMap { $0.isMultiple(of: Self.duplicateEvery) ? [$0, $0] : [$0] }
    }

    /// The positions in ``order`` uploader `index` of `count` sends: every `count`-th.
    package func share(_ index: Int, of count: Int) -> [Int] {
        Array(stride(from: index, to: order.count, by: count))
    }
}
