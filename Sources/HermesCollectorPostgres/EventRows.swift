package import HermesCollector

/// A batch as the columns of one `INSERT … SELECT FROM unnest(…)`: each record once per
/// `(namespace, reportID)` (the first in packet order wins), rows sorted by the unique key so
/// that concurrent batches sharing records lock them in the same order and cannot deadlock.
///
/// Pure: built before the statement runs, the same for the store and the bench's raw insert.
package struct EventRows: Sendable {
    package var namespaces = ArrayColumn<String>()
    package var reportIDs = ArrayColumn<String>()
    package var monitorTypes = ArrayColumn<String>()
    package var createTimes = ArrayColumn<Int64>()
    package var metas = ArrayColumn<String>()
    package var hasPayloads = ArrayColumn<Bool>()
    package var payloads = ArrayColumn<PayloadBytes>()
    /// The facet columns, empty for none (``RecordFacets``).
    package var userIDs = ArrayColumn<String>()
    package var sessionIDs = ArrayColumn<String>()
    package var appVersions = ArrayColumn<String>()
    /// The performance rollup cells the rows add to, each with its row's namespace and report
    /// id: the statement adds those of the rows that were new.
    package var cells = PerformanceCellColumns()
    /// The records lost on devices that `sdkHealth` rows report, each with its row's namespace
    /// and report id: the statement adds those of the rows that were new.
    package var losses = LossColumns()
    /// Each reporting device's latest queue depth in the batch (new rows or not).
    package var queueDevices = ArrayColumn<String>()
    package var queueTimes = ArrayColumn<Int64>()
    package var queueDepths = ArrayColumn<Int64>()
    package var deviceID: String?
    package var batchID: String?
    package var receivedAt: Int64
    package var appKeyID: String?

    /// How many records the batch held, repeats included.
    package let recordCount: Int
    /// How many rows the statement inserts at most.
    package var count: Int { namespaces.count }

    package init(_ batch: IngestBatch) {
        deviceID = batch.deviceID
        batchID = batch.batchID
        receivedAt = batch.receivedAt
        appKeyID = batch.appKeyID
        let records = batch.records
        recordCount = records.count
        // Positions sorted by the unique key, packet order breaking ties: the first of each
        // key's run is the record the packet carried first (no record is copied to sort).
        let order = records.indices.sorted {
            (records[$0].namespace, records[$0].reportID, $0) < (records[$1].namespace, records[$1].reportID, $1)
        }
        let first = records.first
        namespaces.reserveCapacity(records.count, bytesEach: first?.namespace.utf8.count ?? 0)
        reportIDs.reserveCapacity(records.count, bytesEach: first?.reportID.utf8.count ?? 0)
        monitorTypes.reserveCapacity(records.count, bytesEach: first?.monitorType.utf8.count ?? 0)
        metas.reserveCapacity(records.count, bytesEach: first?.meta.count ?? 0)
        for column in [\Self.userIDs, \.sessionIDs, \.appVersions] {
            self[keyPath: column].reserveCapacity(records.count)
        }
        createTimes.reserveCapacity(records.count)
        hasPayloads.reserveCapacity(records.count)
        payloads.reserveCapacity(records.count)
        var health = DeliveryHealthTally()
        var previous: Int?
        for position in order {
            let record = records[position]
            if let previous, records[previous].namespace == record.namespace, records[previous].reportID == record.reportID { continue }
            previous = position
            namespaces.append(record.namespace)
            reportIDs.append(record.reportID)
            monitorTypes.append(record.monitorType)
            createTimes.append(record.createTime)
            metas.append(utf8: record.meta)
            hasPayloads.append(record.payload != nil)
            // A row without a payload still has an element, empty (the column needs one per row).
            payloads.append(PayloadBytes(bytes: record.payload ?? []))
            userIDs.append(record.facets.userID ?? "")
            sessionIDs.append(record.facets.sessionID ?? "")
            appVersions.append(record.facets.appVersion ?? "")
            if let sample = record.facets.sample {
                for cell in sample.cells(createTime: record.createTime) { cells.append(cell, of: sample, record: record) }
            }
            if let sample = record.facets.health {
                for (reason, lost) in sample.lost.sorted(by: { $0.key < $1.key }) { losses.append(reason, lost, of: sample, record: record) }
            }
            health.noteQueue(of: record, uploader: batch.deviceID)
        }
        for (device, queue) in health.sortedQueues {
            queueDevices.append(device)
            queueTimes.append(queue.reportedAt)
            queueDepths.append(queue.depth)
        }
    }

    /// The records lost on devices as columns of an `unnest(…)`, one row per record and reason.
    package struct LossColumns: Sendable {
        package var namespaces = ArrayColumn<String>()
        package var reportIDs = ArrayColumn<String>()
        package var hours = ArrayColumn<Int64>()
        package var appVersions = ArrayColumn<String>()
        package var reasons = ArrayColumn<String>()
        package var counts = ArrayColumn<Int64>()

        mutating func append(_ reason: String, _ lost: Int64, of sample: DeliveryHealthSample, record: IngestRecord) {
            namespaces.append(record.namespace)
            reportIDs.append(record.reportID)
            hours.append(record.createTime.floorDivided(by: 3_600_000))
            appVersions.append(sample.appVersion)
            reasons.append(reason)
            counts.append(lost)
        }
    }

    /// The rollup cells as columns of an `unnest(…)`, one row per record and cell.
    package struct PerformanceCellColumns: Sendable {
        package var namespaces = ArrayColumn<String>()
        package var reportIDs = ArrayColumn<String>()
        package var widths = ArrayColumn<Int64>()
        package var starts = ArrayColumn<Int64>()
        package var measures = ArrayColumn<String>()
        package var keys = ArrayColumn<String>()
        package var buckets = ArrayColumn<Int64>()
        package var failures = ArrayColumn<Int64>()
        package var milliseconds = ArrayColumn<Double>()

        mutating func append(_ cell: PerformanceCell, of sample: PerformanceSample, record: IngestRecord) {
            namespaces.append(record.namespace)
            reportIDs.append(record.reportID)
            widths.append(cell.width)
            starts.append(cell.start)
            measures.append(cell.measure.rawValue)
            keys.append(cell.key)
            buckets.append(cell.bucket)
            failures.append(sample.failed ? 1 : 0)
            milliseconds.append(sample.milliseconds ?? 0)
        }
    }
}
