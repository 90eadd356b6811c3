package import Foundation
import HermesWire
import Logging

/// What `hermes bench journal` measures of the journal, reachable from the package's CLI
/// without making the journal public.
package enum JournalProbe {
    /// Appends `metas.count` records of namespace `namespace` (type `appLag`) to the journal
    /// in `storageDirectory`, timing each append, and leaves the journal as a killed process
    /// would: nothing read, nothing closed.
    /// - Returns: each append's duration in nanoseconds, in call order.
    package static func appendAndAbandon(storageDirectory: URL, namespace: String, metas: [[UInt8]]) -> [Double] {
        let ids = ReportIDGenerator()
        let records = metas.map { meta in
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            return PendingRecord(
                reportID: ids.next(milliseconds: now), namespace: namespace, monitorType: RecordNamespace.storedType("appLag", in: namespace),
                isBusiness: RecordNamespace.isBusiness(namespace),
                createdTime: now, appVersion: "1.0.0", meta: meta, payload: nil
            )
        }
        let journal = Journal(storageDirectory: storageDirectory, fileProtection: .none, logger: .init(label: "hermes.bench"))
        let clock = ContinuousClock()
        var durations: [Double] = []
        durations.reserveCapacity(records.count)
        for record in records {
            let start = clock.now
            let appended = journal.append(record)
            let elapsed = start.duration(to: clock.now)
            guard case .accepted = appended else { preconditionFailure("the journal refused a bench record: \(appended)") }
            durations.append(Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9)
        }
        return durations
    }
}
