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
        var outbox = try tables.outbox(in: db)
        for outcome in answer.outcomes {
            guard let index = outbox.firstIndex(where: { $0.sequence == outcome.sequence }) else { continue }
            let sent = outbox.remove(at: index)
            if outcome.conflict == true {
                for entry in sent.entries where entry.operation == .create { try tables.delete(key(entry.record), in: db) }
                for entry in outcome.entries {
                    try tables.save(entry.record, in: db)
                    changed.append(key(entry.record))
                }
                report.conflicts.append(SyncConflict(
                    sequence: sent.sequence ?? 0, reason: outcome.reason.flatMap(SyncConflictReason.init(rawValue:)),
                    sent: sent, server: outcome.entries.map(\.record)
                ))
            } else {
                try applyAccepted(outcome, sent: sent, outbox: &outbox, changed: &changed)
                report.applied.append(sent.sequence ?? 0)
            }
        }
        let pending = Set(outbox.flatMap { $0.entries.map { key($0.record) } })
        if answer.reset {
            try tables.dropServerRecords(keeping: pending, in: db)
            report.reset = true
        }
        for changeSet in answer.missed {
            for entry in changeSet.entries where !pending.contains(key(entry.record)) {
                if let local = try tables.revision(of: key(entry.record), in: db), local > entry.record.revision { continue }
                try tables.save(entry.record, in: db)
                changed.append(key(entry.record))
                report.received += 1
            }
        }
        try tables.replaceOutbox(with: outbox, in: db)
        let previous = try Int64.fetchOne(db, sql: "SELECT max_revision FROM hermes_sync_state WHERE id = 1") ?? 0
        // A reset may go back: the server's store was restored from a backup older than the device.
        report.maxRevision = answer.reset ? answer.maxRevision : max(previous, answer.maxRevision)
        try db.execute(
            sql: "UPDATE hermes_sync_state SET max_revision = ?, cursor = ? WHERE id = 1", arguments: [report.maxRevision, answer.cursor]
        )
        return (report, changed)
    }

    /// An applied change set: server ids for created records (in rows, foreign keys and queued
    /// change sets), the new revision as the base of queued changes to the same records.
    private func applyAccepted(_ outcome: SyncChangeSet, sent: SyncChangeSet, outbox: inout [SyncChangeSet], changed: inout [SyncRecordKey]) throws {
        let revision = outcome.revision ?? 0
        for entry in outcome.entries {
            let serverKey = key(entry.record)
            let sentKey = SyncRecordKey(type: serverKey.type, id: entry.oldID ?? serverKey.id)
            let base = sent.entries.first { key($0.record) == sentKey }?.record.revision ?? 0
            if entry.oldID != nil {
                try tables.rename(sentKey, to: serverKey.id, in: db)
                outbox = outbox.map { rename(sentKey, to: serverKey.id, in: $0) }
            }
            outbox = outbox.map { rebase(serverKey, from: base, to: revision, in: $0) }
            let stillPending = outbox.contains { $0.entries.contains { key($0.record) == serverKey } }
            if entry.operation == .delete {
                if !stillPending { try tables.delete(serverKey, in: db) }
            } else if stillPending {
                try tables.setRevision(revision, of: serverKey, in: db)
            } else {
                try tables.save(entry.record, in: db)
            }
            changed.append(serverKey)
        }
    }

    /// `changeSet` with the temporary id of `old` replaced by `id`, in its entries and in the
    /// foreign keys of its attributes.
    private func rename(_ old: SyncRecordKey, to id: Int64, in changeSet: SyncChangeSet) -> SyncChangeSet {
        var changeSet = changeSet
        let references = tables.schema.references(to: old.type)
        for index in changeSet.entries.indices {
            var record = changeSet.entries[index].record
            if key(record) == old { record.id = id }
            for reference in references where reference.type == record.type && record.attributes?[reference.attribute]?.intValue == old.id {
                record.attributes?[reference.attribute] = .int(id)
            }
            changeSet.entries[index].record = record
        }
        return changeSet
    }

    /// `changeSet` with changes to `record` that were based on `base` now based on `revision`:
    /// this device's own change moved the record there.
    private func rebase(_ record: SyncRecordKey, from base: Int64, to revision: Int64, in changeSet: SyncChangeSet) -> SyncChangeSet {
        var changeSet = changeSet
        for index in changeSet.entries.indices where key(changeSet.entries[index].record) == record && changeSet.entries[index].record.revision == base {
            changeSet.entries[index].record.revision = revision
        }
        return changeSet
    }

    private func key(_ record: SyncRecord) -> SyncRecordKey {
        SyncRecordKey(type: record.type, id: record.id)
    }
}
