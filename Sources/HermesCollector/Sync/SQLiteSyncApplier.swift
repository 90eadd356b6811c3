import GRDB
import HermesWire

/// Applies one change set inside the writer's transaction (``SQLiteSyncStorage``): checks it,
/// writes it in a savepoint that is rolled back whole if any part conflicts, and records its
/// outcome under `(clientID, sequence)`.
struct SQLiteSyncApplier {
    /// Why a change set is refused, and the records whose server state goes back with the refusal.
    struct Refusal: Error {
        var reason: SyncConflictReason
        var involved: [SyncRecordKey]
    }

    let db: Database
    let rules: SyncRules
    let clientID: String
    let now: Int64

    func apply(_ changeSet: SyncChangeSet, schemaVersion: Int64) throws -> SyncChangeSet {
        let sequence = changeSet.sequence ?? 0
        if let stored = try String.fetchOne(
            db.cachedStatement(sql: "SELECT outcome FROM sync_outcomes WHERE client_id = ? AND sequence = ?"), arguments: [clientID, sequence]
        ) {
            return try SyncChangeSet(json: JSONValue(parsing: Array(stored.utf8)))
        }
        let outcome: SyncChangeSet
        let last = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT MAX(sequence) FROM sync_outcomes WHERE client_id = ?"), arguments: [clientID]
        ) ?? 0
        if sequence <= last {
            outcome = try refused(changeSet, Refusal(reason: .expired, involved: []))
        } else if schemaVersion != rules.schema.version {
            outcome = try refused(changeSet, Refusal(reason: .schema, involved: []))
        } else if rules.schema.problem(in: changeSet) != nil {
            outcome = try refused(changeSet, Refusal(reason: .invalid, involved: []))
        } else if !changeSet.entries.allSatisfy({ rules.permission(clientID, $0) }) {
            outcome = try refused(changeSet, Refusal(reason: .forbidden, involved: []))
        } else {
            var result: Result<SyncChangeSet, Refusal> = .failure(Refusal(reason: .invalid, involved: []))
            try db.inSavepoint {
                do {
                    result = .success(try write(changeSet))
                    return .commit
                } catch let refusal as Refusal {
                    result = .failure(refusal)
                    return .rollback
                }
            }
            switch result {
            case .success(let applied): outcome = applied
            case .failure(let refusal): outcome = try refused(changeSet, refusal)
            }
        }
        let text = try outcome.jsonString()
        try execute(
            "INSERT INTO sync_outcomes(client_id, sequence, revision, outcome, received_at) VALUES (?, ?, ?, ?, ?)",
            [clientID, sequence, outcome.revision, text, now]
        )
        return outcome
    }

    /// Writes the change set at the next revision, or throws a ``Refusal``.
    private func write(_ changeSet: SyncChangeSet) throws -> SyncChangeSet {
        let state = try Row.fetchOne(db.cachedStatement(sql: "SELECT revision, next_id FROM sync_state WHERE id = 1"))!
        let revision = (state["revision"] as Int64) + 1
        var nextID: Int64 = state["next_id"]
        var serverIDs: [SyncRecordKey: Int64] = [:]
        for entry in changeSet.entries where entry.operation == .create {
            serverIDs[key(entry.record)] = nextID
            nextID += 1
        }
        for entry in changeSet.entries where entry.operation != .create {
            let current = try stored(key(entry.record))
            guard let current, !current.isDeleted, current.revision == entry.record.revision else {
                throw Refusal(reason: .stale, involved: [key(entry.record)])
            }
        }
        var written: [SyncChangeSet.Entry] = []
        for entry in changeSet.entries {
            let type = entry.record.type
            let id = serverIDs[key(entry.record)] ?? entry.record.id
            try execute("DELETE FROM sync_references WHERE type = ? AND id = ?", [type, id])
            // A `null` attribute is an absent one.
            guard var attributes = entry.record.attributes?.filter({ $0.value != .null }) else {
                try execute(
                    "UPDATE sync_records SET attributes = NULL, deleted_at = ?, revision = ? WHERE type = ? AND id = ?", [now, revision, type, id]
                )
                written.append(.init(.delete, SyncRecord(type: type, id: id, revision: revision, attributes: nil)))
                continue
            }
            for attribute in rules.schema.type(named: type)?.attributes ?? [] {
                guard let target = attribute.referencedType, let value = attributes[attribute.name]?.intValue, value < 0 else { continue }
                attributes[attribute.name] = .int(serverIDs[SyncRecordKey(type: target, id: value)] ?? value)
            }
            let record = SyncRecord(type: type, id: id, revision: revision, attributes: attributes)
            let text = try JSONValue.object(attributes).jsonString()
            try execute("""
                INSERT INTO sync_records(type, id, revision, created, attributes, deleted_at) VALUES (?, ?, ?, ?, ?, NULL)
                ON CONFLICT (type, id) DO UPDATE SET revision = excluded.revision, attributes = excluded.attributes
                """, [type, id, revision, revision, text])
            for target in rules.schema.references(of: record) {
                try execute(
                    "INSERT OR IGNORE INTO sync_references(target_type, target_id, type, id) VALUES (?, ?, ?, ?)", [target.type, target.id, type, id]
                )
            }
            written.append(.init(entry.operation, record, oldID: entry.operation == .create ? entry.record.id : nil))
        }
        try checkReferences(of: written)
        try execute("UPDATE sync_state SET revision = ?, next_id = ? WHERE id = 1", [revision, nextID])
        return SyncChangeSet(sequence: changeSet.sequence, revision: revision, conflict: false, entries: written)
    }

    /// Every reference written points to a live record, and no deleted record is still referenced.
    private func checkReferences(of written: [SyncChangeSet.Entry]) throws {
        for entry in written {
            if entry.record.isDeleted {
                let referrers = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT type, id FROM sync_references WHERE target_type = ? AND target_id = ? ORDER BY type, id LIMIT 100"),
                    arguments: [entry.record.type, entry.record.id]
                ).map { SyncRecordKey(type: $0["type"], id: $0["id"]) }
                if !referrers.isEmpty { throw Refusal(reason: .referenced, involved: [key(entry.record)] + referrers) }
            } else {
                for target in rules.schema.references(of: entry.record) {
                    guard let stored = try stored(target) else { throw Refusal(reason: .invalid, involved: [key(entry.record)]) }
                    if stored.isDeleted { throw Refusal(reason: .stale, involved: [key(entry.record), target]) }
                }
            }
        }
    }

    /// The refusal of `changeSet`: `conflict: true`, the reason, and the server's state of every
    /// existing record it touched and of the records the refusal names.
    private func refused(_ changeSet: SyncChangeSet, _ refusal: Refusal) throws -> SyncChangeSet {
        var seen = Set<SyncRecordKey>()
        let keys = (refusal.involved + changeSet.entries.map { key($0.record) }).filter {
            $0.id > 0 && rules.schema.type(named: $0.type) != nil && seen.insert($0).inserted
        }
        var entries: [SyncChangeSet.Entry] = []
        for key in keys {
            if let record = try stored(key), !record.isDeleted {
                entries.append(.init(.update, record))
            } else {
                entries.append(.init(.delete, SyncRecord(type: key.type, id: key.id, revision: try stored(key)?.revision ?? 0, attributes: nil)))
            }
        }
        return SyncChangeSet(sequence: changeSet.sequence, conflict: true, reason: refusal.reason.rawValue, entries: entries)
    }

    private func stored(_ key: SyncRecordKey) throws -> SyncRecord? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT type, id, revision, attributes FROM sync_records WHERE type = ? AND id = ?"), arguments: [key.type, key.id]
        ).map(SQLiteSyncStorage.record)
    }

    /// Runs one of the applier's statements, prepared once per connection (GRDB's statement cache).
    private func execute(_ sql: String, _ arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    private func key(_ record: SyncRecord) -> SyncRecordKey {
        SyncRecordKey(type: record.type, id: record.id)
    }
}
