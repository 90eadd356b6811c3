import GRDB
import HermesWire

/// Applies a server's answer to the local data set inside one transaction: the outcomes of the
/// device's change sets first (server ids replace temporary ids, revisions advance, refused
/// changes give way to the server's records), then the missed change sets, then the new revision
/// and cursor, last.
///
/// A record with a change still queued keeps its local state: the queued change decides (applied,
/// the server's state arrives with it; refused, the conflict brings the server's state).
struct SyncAnswerApplier {
    let db: Database
    let tables: SyncTables

    func apply(_ answer: SyncAnswer) throws -> (report: SyncReport, changed: [SyncRecordKey]) {
        var report = SyncReport()
        var changed: [SyncRecordKey] = []
        for outcome in answer.outcomes {
            guard let sequence = outcome.sequence, let sent = try tables.queued(sequence, in: db) else { continue }
            if outcome.reason == SyncConflictReason.schemaPending.rawValue {
                // Kept queued as it is, with the records it made: sent again after an upgrade.
                report.pending.append(sequence)
                continue
            }
            try tables.dequeue(sequence, in: db)
            if outcome.conflict == true {
                for entry in sent.entries where entry.operation == .create { try tables.delete(key(entry.record), in: db) }
                for entry in outcome.entries {
                    try tables.save(entry.record, in: db)
                    changed.append(key(entry.record))
                }
                report.conflicts.append(
                    SyncConflict(
                        sequence: sequence, reason: outcome.reason.flatMap(SyncConflictReason.init(rawValue:)),
                        sent: sent, server: outcome.entries.map(\.record)
                    ))
            } else {
                try applyAccepted(outcome, sent: sent, changed: &changed)
                report.applied.append(sequence)
            }
        }
        if answer.reset {
            try tables.dropServerRecords(keeping: tables.queuedKeys(in: db), in: db)
            report.reset = true
        }
        let anyQueued = try tables.hasQueued(in: db)
        var saver = tables.newerRecordSaver(in: db)
        for changeSet in answer.missed {
            for entry in changeSet.entries {
                let key = key(entry.record)
                guard try !anyQueued || !tables.isQueued(key, in: db), try saver.saveUnlessNewer(entry.record) else { continue }
                changed.append(key)
                report.received += 1
            }
        }
        try tables.forgetSettledRenamesAndRebases(in: db)
        try tables.notifyChanges(to: changed.lazy.map(\.type), in: db)
        let previous = try SyncDeviceState.read(in: db).maxRevision
        // A reset may go back: the server's store was restored from a backup older than the device.
        report.maxRevision = answer.reset ? answer.maxRevision : max(previous, answer.maxRevision)
        try SyncDeviceState.answered(maxRevision: report.maxRevision, cursor: answer.cursor, in: db)
        return (report, changed)
    }

    /// An applied change set: server ids for created records (in rows and foreign keys; the
    /// queued change sets read them through the renames), and the new revision as the base of
    /// queued changes to the same records (through the rebases).
    private func applyAccepted(_ outcome: SyncChangeSet, sent: SyncChangeSet, changed: inout [SyncRecordKey]) throws {
        let revision = outcome.revision ?? 0
        let bases = Dictionary(sent.entries.map { (key($0.record), $0.record.revision) }, uniquingKeysWith: { first, _ in first })
        for entry in outcome.entries {
            let serverKey = key(entry.record)
            let sentKey = SyncRecordKey(type: serverKey.type, id: entry.oldID ?? serverKey.id)
            if entry.oldID != nil {
                try tables.rename(sentKey, to: serverKey.id, in: db)
                try tables.recordRename(sentKey, to: serverKey.id, in: db)
            }
            let queued = try tables.isQueued(serverKey, in: db)
            if queued { try tables.recordRebase(of: serverKey, from: bases[sentKey] ?? 0, to: revision, in: db) }
            if entry.operation == .delete {
                if !queued { try tables.delete(serverKey, in: db) }
            } else if queued {
                try tables.setRevision(revision, of: serverKey, in: db)
            } else {
                try tables.save(entry.record, in: db)
            }
            changed.append(serverKey)
        }
    }

    private func key(_ record: SyncRecord) -> SyncRecordKey {
        SyncRecordKey(type: record.type, id: record.id)
    }
}
