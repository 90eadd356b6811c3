import GRDB
import HermesWire

/// Applies one change set inside the writer's transaction (``SQLiteSyncStorage``): carries out
/// the steps of ``SyncApplyPlanner`` in SQL, the write in a savepoint rolled back whole if any
/// part conflicts, and records the outcome under `(clientID, sequence)`.
struct SQLiteSyncApplier {
    let db: Database
    let rules: SyncRules
    let identity: SyncIdentity
    let now: Int64

    func apply(_ changeSet: SyncChangeSet, schemaVersion: Int64) throws -> SyncChangeSet {
        let planner = SyncApplyPlanner(changeSet, rules: rules, identity: identity, schemaVersion: schemaVersion)
        let clientID = planner.clientID
        if let stored = try String.fetchOne(
            db.cachedStatement(sql: "SELECT outcome FROM sync_outcomes WHERE client_id = ? AND sequence = ?"),
            arguments: [clientID, planner.sequence]
        ) {
            return try SyncChangeSet(jsonBytes: stored.utf8)
        }
        let last =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT MAX(sequence) FROM sync_outcomes WHERE client_id = ?"), arguments: [clientID]
            ) ?? 0
        var result: Result<SyncChangeSet, SyncRefusal>
        if let refusal = planner.refusalBeforeWriting(lastSequence: last) {
            result = .failure(refusal)
        } else {
            result = .failure(SyncRefusal(.invalid))
            try db.inSavepoint {
                do {
                    result = .success(try write(planner))
                    return .commit
                } catch let refusal as SyncRefusal {
                    result = .failure(refusal)
                    return .rollback
                }
            }
        }
        let outcome: SyncChangeSet
        switch result {
        case .success(let applied): outcome = applied
        case .failure(let refusal): outcome = planner.refused(refusal, stored: try stored(planner.keys(answering: refusal)))
        }
        guard SyncApplyPlanner.recordsOutcome(of: outcome) else { return outcome }
        try execute(
            "INSERT INTO sync_outcomes(client_id, sequence, revision, outcome, received_at) VALUES (?, ?, ?, ?, ?)",
            [clientID, planner.sequence, outcome.revision, try outcome.jsonString(), now]
        )
        return outcome
    }

    /// Writes the change set at the next revision, or throws a ``SyncRefusal``.
    private func write(_ planner: SyncApplyPlanner) throws -> SyncChangeSet {
        let state = try Row.fetchOne(db.cachedStatement(sql: "SELECT revision, next_id FROM sync_state WHERE id = 1"))!
        let write = try planner.write(revision: (state["revision"] as Int64) + 1, nextID: state["next_id"], current: try stored(planner.basedOnKeys))
        for entry in write.entries {
            let record = entry.record
            try execute("DELETE FROM sync_references WHERE type = ? AND id = ?", [record.type, record.id])
            if !record.isDeleted {
                try execute(
                    """
                    INSERT INTO sync_records(type, id, revision, created, attributes, deleted_at) VALUES (?, ?, ?, ?, ?, NULL)
                    ON CONFLICT (type, id) DO UPDATE SET revision = excluded.revision, attributes = excluded.attributes
                    """, [record.type, record.id, write.revision, write.revision, try record.storedAttributes])
            } else {
                try execute(
                    "UPDATE sync_records SET attributes = NULL, deleted_at = ?, revision = ? WHERE type = ? AND id = ?",
                    [now, write.revision, record.type, record.id]
                )
            }
        }
        for (source, target) in write.references {
            try execute(
                "INSERT OR IGNORE INTO sync_references(target_type, target_id, type, id) VALUES (?, ?, ?, ?)",
                [target.type, target.id, source.type, source.id]
            )
        }
        var referrers: [SyncRecordKey: [SyncRecordKey]] = [:]
        for key in write.deletedKeys {
            referrers[key] = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT type, id FROM sync_references WHERE target_type = ? AND target_id = ? ORDER BY type, id LIMIT ?"),
                arguments: [key.type, key.id, SyncApplyPlanner.referrersShown]
            ).map { SyncRecordKey(type: $0["type"], id: $0["id"]) }
        }
        if let refusal = planner.referenceRefusal(of: write, referrers: referrers, targets: try stored(write.targetKeys)) {
            throw refusal
        }
        try execute("UPDATE sync_state SET revision = ?, next_id = ? WHERE id = 1", [write.revision, write.nextID])
        return SyncChangeSet(sequence: planner.sequence, revision: write.revision, conflict: false, entries: write.entries)
    }

    /// The stored state (tombstones included) of those of `keys` that exist.
    private func stored(_ keys: [SyncRecordKey]) throws -> [SyncRecordKey: SyncRecord] {
        var records: [SyncRecordKey: SyncRecord] = [:]
        for key in keys {
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT type, id, revision, attributes FROM sync_records WHERE type = ? AND id = ?"),
                arguments: [key.type, key.id]
            )
            if let row { records[key] = try SQLiteSyncStorage.record(row) }
        }
        return records
    }

    /// Runs one of the applier's statements, prepared once per connection (GRDB's statement cache).
    private func execute(_ sql: String, _ arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
