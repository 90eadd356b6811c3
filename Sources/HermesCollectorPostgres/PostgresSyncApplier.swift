import HermesCollector
import HermesWire
import Logging
import PostgresNIO

/// Applies one change set inside a transaction of ``PostgresSyncStorage``: the steps of
/// ``SyncApplyPlanner`` in SQL, a statement per step over arrays (`unnest`), not per record.
///
/// Its first statement locks the one row of `sync_state` (`FOR UPDATE`) and reads the revision
/// there; the revision is bumped in that row and the lock held until the transaction ends. So
/// change sets are applied one after the other and commit in the order of their revisions: a
/// reader that sees revision *n* sees every revision below it, and a cursor never skips a commit
/// (a sequence could hand out *n + 1* to a transaction that commits before *n*'s). The same
/// lock makes a change set sent twice at the same moment wait for the first outcome, then get it.
struct PostgresSyncApplier {
    let connection: PostgresConnection
    let logger: Logger
    let planner: SyncApplyPlanner
    let now: Int64

    private var clientID: String { planner.clientID }

    func apply() async throws -> SyncChangeSet {
        var state: (revision: Int64, nextID: Int64)?
        for try await row in try await connection.query(
            "SELECT revision, next_id FROM sync_state WHERE id = 1 FOR UPDATE", logger: logger
        ).decode((Int64, Int64).self) { state = row }
        guard let state else { throw CollectorError(.storageFailed, "the sync state row is missing") }
        // A statement of its own, after the lock: its snapshot holds what the applies before committed.
        var recorded: (outcome: String?, lastSequence: Int64?) = (nil, nil)
        for try await row in try await connection.query(
            """
            SELECT (SELECT outcome FROM sync_outcomes WHERE client_id = \(clientID) AND sequence = \(planner.sequence)),
                   (SELECT max(sequence) FROM sync_outcomes WHERE client_id = \(clientID))
            """, logger: logger
        ).decode((String?, Int64?).self) { recorded = row }
        if let outcome = recorded.outcome { return try SyncChangeSet(jsonBytes: outcome.utf8) }

        var result: Result<SyncChangeSet, SyncRefusal>
        if let refusal = planner.refusalBeforeWriting(lastSequence: recorded.lastSequence ?? 0) {
            result = .failure(refusal)
        } else {
            try await connection.query("SAVEPOINT change_set", logger: logger)
            do {
                result = .success(try await write(revision: state.revision + 1, nextID: state.nextID))
                try await connection.query("RELEASE SAVEPOINT change_set", logger: logger)
            } catch let refusal as SyncRefusal {
                try await connection.query("ROLLBACK TO SAVEPOINT change_set", logger: logger)
                result = .failure(refusal)
            }
        }
        let outcome: SyncChangeSet
        switch result {
        case .success(let applied): outcome = applied
        case .failure(let refusal): outcome = planner.refused(refusal, stored: try await stored(planner.keys(answering: refusal)))
        }
        guard SyncApplyPlanner.recordsOutcome(of: outcome) else { return outcome }
        let text = try outcome.jsonString()
        try await connection.query(
            """
            INSERT INTO sync_outcomes (client_id, sequence, revision, outcome, received_at)
            VALUES (\(clientID), \(planner.sequence), \(outcome.revision), \(text), \(now))
            """, logger: logger)
        return outcome
    }

    /// Writes the change set at `revision`, or throws a ``SyncRefusal`` (the caller rolls back).
    private func write(revision: Int64, nextID: Int64) async throws -> SyncChangeSet {
        let write = try planner.write(revision: revision, nextID: nextID, current: try await stored(planner.basedOnKeys))
        let keys = write.entries.map(\.record.key)
        try await connection.query(
            """
            DELETE FROM sync_references
            WHERE (type, id) IN (SELECT * FROM unnest(\(keys.map(\.type))::text[], \(keys.map(\.id))::int8[]))
            """, logger: logger)
        let live = write.entries.map(\.record).filter { !$0.isDeleted }
        if !live.isEmpty {
            let attributes = try live.map { try $0.storedAttributes ?? "{}" }
            try await connection.query(
                """
                INSERT INTO sync_records (type, id, revision, created, attributes)
                SELECT r.type, r.id, \(revision), \(revision), r.attributes
                FROM unnest(\(live.map(\.type))::text[], \(live.map(\.id))::int8[], \(attributes)::text[]) AS r(type, id, attributes)
                ON CONFLICT (type, id) DO UPDATE SET revision = excluded.revision, attributes = excluded.attributes
                """, logger: logger)
        }
        let deleted = write.deletedKeys
        if !deleted.isEmpty {
            try await connection.query(
                """
                UPDATE sync_records s SET attributes = NULL, deleted_at = \(now), revision = \(revision)
                FROM unnest(\(deleted.map(\.type))::text[], \(deleted.map(\.id))::int8[]) AS d(type, id)
                WHERE s.type = d.type AND s.id = d.id
                """, logger: logger)
        }
        if !write.references.isEmpty {
            let references = write.references
            try await connection.query(
                """
                INSERT INTO sync_references (target_type, target_id, type, id)
                SELECT * FROM unnest(\(references.map(\.target.type))::text[], \(references.map(\.target.id))::int8[],
                                     \(references.map(\.source.type))::text[], \(references.map(\.source.id))::int8[])
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        let refusal = planner.referenceRefusal(of: write, referrers: try await referrers(of: deleted), targets: try await stored(write.targetKeys))
        if let refusal { throw refusal }
        try await connection.query(
            "UPDATE sync_state SET revision = \(revision), next_id = \(write.nextID) WHERE id = 1", logger: logger
        )
        return SyncChangeSet(sequence: planner.sequence, revision: revision, conflict: false, entries: write.entries)
    }

    /// The referrers of each of `keys`, by type and id, at most ``SyncApplyPlanner/referrersShown`` each.
    private func referrers(of keys: [SyncRecordKey]) async throws -> [SyncRecordKey: [SyncRecordKey]] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT d.type, d.id, r.type, r.id
            FROM unnest(\(keys.map(\.type))::text[], \(keys.map(\.id))::int8[]) AS d(type, id)
            CROSS JOIN LATERAL (
                SELECT type, id FROM sync_references WHERE target_type = d.type AND target_id = d.id
                ORDER BY type, id LIMIT \(SyncApplyPlanner.referrersShown)
            ) r
            ORDER BY d.type COLLATE "C", d.id, r.type, r.id
            """, logger: logger)
        var referrers: [SyncRecordKey: [SyncRecordKey]] = [:]
        for try await (type, id, sourceType, sourceID) in rows.decode((String, Int64, String, Int64).self) {
            referrers[SyncRecordKey(type: type, id: id), default: []].append(SyncRecordKey(type: sourceType, id: sourceID))
        }
        return referrers
    }

    /// The stored state (tombstones included) of those of `keys` that exist.
    private func stored(_ keys: [SyncRecordKey]) async throws -> [SyncRecordKey: SyncRecord] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT s.type, s.id, s.revision, s.attributes
            FROM sync_records s JOIN unnest(\(keys.map(\.type))::text[], \(keys.map(\.id))::int8[]) AS k(type, id)
                 ON s.type = k.type AND s.id = k.id
            """, logger: logger)
        var records: [SyncRecordKey: SyncRecord] = [:]
        for try await row in rows.decode((String, Int64, Int64, String?).self) {
            let record = try SyncRecord(type: row.0, id: row.1, revision: row.2, storedAttributes: row.3)
            records[record.key] = record
        }
        return records
    }
}
