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
                guard try tables.saveUnlessNewer(entry.record, in: db) else { continue }
                changed.append(key(entry.record))
                report.received += 1
            }
        }
        try tables.notifyChanges(to: changed.map(\.type), in: db)
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
    /// change sets), the new revision as the base of queued changes to the same records. The
    /// queue is rewritten in one pass, whatever the number of records.
    private func applyAccepted(_ outcome: SyncChangeSet, sent: SyncChangeSet, outbox: inout [SyncChangeSet], changed: inout [SyncRecordKey]) throws {
        let revision = outcome.revision ?? 0
        let bases = Dictionary(sent.entries.map { (key($0.record), $0.record.revision) }, uniquingKeysWith: { first, _ in first })
        var serverIDs: [SyncRecordKey: Int64] = [:]
        var rebases: [SyncRecordKey: Int64] = [:]
        for entry in outcome.entries {
            let serverKey = key(entry.record)
            let sentKey = SyncRecordKey(type: serverKey.type, id: entry.oldID ?? serverKey.id)
            if entry.oldID != nil {
                try tables.rename(sentKey, to: serverKey.id, in: db)
                serverIDs[sentKey] = serverKey.id
            }
            rebases[serverKey] = bases[sentKey] ?? 0
        }
        outbox = outbox.map { rewrite($0, serverIDs: serverIDs, rebases: rebases, to: revision) }
        let pending = Set(outbox.flatMap { $0.entries.map { key($0.record) } })
        for entry in outcome.entries {
            let serverKey = key(entry.record)
            if entry.operation == .delete {
                if !pending.contains(serverKey) { try tables.delete(serverKey, in: db) }
            } else if pending.contains(serverKey) {
                try tables.setRevision(revision, of: serverKey, in: db)
            } else {
                try tables.save(entry.record, in: db)
            }
            changed.append(serverKey)
        }
    }

    /// `changeSet` with temporary ids replaced by the server's (`serverIDs`), in its entries and
    /// in the foreign keys of its attributes; and with changes to a record of `rebases` that were
    /// based on the revision given there now based on `revision`: this device's own change moved
    /// the record there.
    private func rewrite(_ changeSet: SyncChangeSet, serverIDs: [SyncRecordKey: Int64], rebases: [SyncRecordKey: Int64], to revision: Int64) -> SyncChangeSet {
        var changeSet = changeSet
        for index in changeSet.entries.indices {
            var record = changeSet.entries[index].record
            if let id = serverIDs[key(record)] { record.id = id }
            for attribute in tables.schema.type(named: record.type)?.attributes ?? [] {
                guard let target = attribute.referencedType, let old = record.attributes?[attribute.name]?.intValue, old < 0,
                      let id = serverIDs[SyncRecordKey(type: target, id: old)] else { continue }
                record.attributes?[attribute.name] = .int(id)
            }
            if rebases[key(record)] == record.revision { record.revision = revision }
            changeSet.entries[index].record = record
        }
        return changeSet
    }

    private func key(_ record: SyncRecord) -> SyncRecordKey {
        SyncRecordKey(type: record.type, id: record.id)
    }
}
