/// A batch's `sdkHealth` records as the delivery health rollups: records lost by hour, app
/// version and reason (new records only, summed), and each device's latest queue depth.
package struct DeliveryHealthTally {
    /// A row of the losses rollup.
    package struct LossKey: Hashable, Comparable {
        /// The hour of the record's `CREATE_TIME`, in hours since 1970.
        package let hour: Int64
        package let appVersion: String
        package let reason: String

        package static func < (left: Self, right: Self) -> Bool {
            (left.hour, left.appVersion, left.reason) < (right.hour, right.appVersion, right.reason)
        }
    }

    /// A device's latest report.
    package struct Queue {
        package let reportedAt: Int64
        package let depth: Int64
    }

    package private(set) var losses: [LossKey: Int64] = [:]
    package private(set) var queues: [String: Queue] = [:]

    /// No records.
    package init() {}

    /// Counts a new record's losses (records without a health sample are ignored).
    package mutating func countLosses(of record: IngestRecord) {
        guard let sample = record.facets.health else { return }
        let hour = record.createTime.floorDivided(by: 3_600_000)
        for (reason, count) in sample.lost {
            losses[LossKey(hour: hour, appVersion: sample.appVersion, reason: reason), default: 0] += count
        }
    }

    /// Keeps a record's queue depth when it is its device's latest so far (on a tie, the later
    /// record). New or not: a repeated report sets the same value.
    /// - Parameter uploader: the upload's device id, for a record without `DEVICE_ID`.
    package mutating func noteQueue(of record: IngestRecord, uploader: String?) {
        guard let sample = record.facets.health, let depth = sample.queueDepth else { return }
        let device = sample.device ?? uploader ?? "unknown"
        if record.createTime >= queues[device]?.reportedAt ?? .min {
            queues[device] = Queue(reportedAt: record.createTime, depth: depth)
        }
    }

    /// The losses in key order (concurrent batches update shared rows in one order).
    package var sortedLosses: [(key: LossKey, lost: Int64)] { losses.keys.sorted().map { ($0, losses[$0]!) } }

    /// The queues in device order.
    package var sortedQueues: [(device: String, queue: Queue)] { queues.keys.sorted().map { ($0, queues[$0]!) } }
}
