package import HermesWire

/// A page of missed change sets built from the stored records it reads, in order of revision: one
/// change set per revision, each record a `create` (written first at that revision), an `update`,
/// or a `delete` (a tombstone).
package struct SyncMissedChangeSets: Sendable {
    /// The change sets so far.
    package private(set) var changeSets: [SyncChangeSet] = []

    package init() {}

    /// Adds the next record read.
    /// - Parameters:
    ///   - record: the record as stored, read in order of revision.
    ///   - created: the revision it was created at.
    package mutating func append(_ record: SyncRecord, created: Int64) {
        let operation: SyncChangeSet.Operation = record.isDeleted ? .delete : (created == record.revision ? .create : .update)
        if changeSets.last?.revision != record.revision {
            // Room for as many records as the change set before held: one push's records alike.
            var entries: [SyncChangeSet.Entry] = []
            entries.reserveCapacity(changeSets.last?.entries.count ?? 1)
            changeSets.append(SyncChangeSet(revision: record.revision, entries: entries))
        }
        changeSets[changeSets.count - 1].entries.append(.init(operation, record))
    }
}
