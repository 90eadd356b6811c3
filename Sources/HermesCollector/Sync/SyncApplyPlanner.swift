package import HermesWire

/// Why a change set is refused, and the records whose server state goes back with the refusal.
package struct SyncRefusal: Error, Hashable {
    package var reason: SyncConflictReason
    package var involved: [SyncRecordKey]

    package init(_ reason: SyncConflictReason, involved: [SyncRecordKey] = []) {
        self.reason = reason
        self.involved = involved
    }
}

/// What applying one change set writes: the records as stored (server ids, foreign keys
/// rewritten, the new revision), their references, and the store's next revision and id.
package struct SyncWrite: Sendable {
    /// The revision the change set is committed at.
    package var revision: Int64
    /// The next server id once the created records took theirs.
    package var nextID: Int64
    /// The entries as stored and answered (`__oldId__` on created records).
    package var entries: [SyncChangeSet.Entry]
    /// Each stored record's references, as (source, target): the rows of `sync_references`.
    package var references: [(source: SyncRecordKey, target: SyncRecordKey)]

    /// The deleted records: each must have no referrer left once the change set is written.
    package var deletedKeys: [SyncRecordKey] { entries.filter(\.record.isDeleted).map { $0.record.key } }
    /// The records the stored ones refer to: each must exist and be live once written.
    package var targetKeys: [SyncRecordKey] { Array(Set(references.map(\.target))).sorted() }
}

/// The decisions of applying one change set, apart from the SQL that reads and writes a store:
/// which refusal comes first, the ids and revision the written records take, whether the
/// references hold once written, and what a refusal answers. ``SQLiteSyncApplier`` and the
/// PostgreSQL store drive it through the same steps:
///
/// 1. a recorded outcome for `(clientID, sequence)` is answered as it is;
/// 2. ``refusalBeforeWriting(lastSequence:)``;
/// 3. ``write(revision:nextID:current:)`` with the current state of ``basedOnKeys``;
/// 4. the write carried out, then ``referenceRefusal(of:referrers:targets:)`` with the state
///    after it (a refusal rolls the write back);
/// 5. a refusal answered by ``refused(_:stored:)`` with the state of ``keys(answering:)``;
/// 6. the outcome recorded under `(clientID, sequence)`, unless ``recordsOutcome(of:)`` says not.
package struct SyncApplyPlanner: Sendable {
    /// How many referrers of a deleted record a refusal names at most.
    package static let referrersShown = 100

    let changeSet: SyncChangeSet
    let rules: SyncRules
    /// The device that sent the change set, as its credential tells it.
    let identity: SyncIdentity
    /// The schema version the device's request declared.
    let schemaVersion: Int64

    package init(_ changeSet: SyncChangeSet, rules: SyncRules, identity: SyncIdentity, schemaVersion: Int64) {
        self.changeSet = changeSet
        self.rules = rules
        self.identity = identity
        self.schemaVersion = schemaVersion
    }

    /// The device that sent the change set.
    package var clientID: String { identity.clientID }

    /// Whether the device speaks another schema version than the server's.
    private var otherVersion: Bool { schemaVersion != rules.schema.version }

    /// The device's sequence of the change set (0 when missing; the server refuses those first).
    package var sequence: Int64 { changeSet.sequence ?? 0 }

    /// The refusal decided without the data set: a sequence already passed whose outcome is
    /// forgotten (`expired`), a change set of another schema version the server's cannot take
    /// (`schemaPending`: not recorded, see ``recordsOutcome(of:)``), an ill-formed change set, an
    /// entry ``SyncRules/permission`` forbids (the schema's access rules are checked by
    /// ``write(revision:nextID:current:)``, against the stored records).
    ///
    /// The upgrade rule: a change set of another version is applied when every type and
    /// attribute it uses exists in the server's schema with the same kind (additive changes:
    /// new types, new attributes); an update of it keeps the stored values of the attributes it
    /// does not name, which its app did not know.
    /// - Parameter lastSequence: the highest sequence recorded for the device (0 for none).
    package func refusalBeforeWriting(lastSequence: Int64) -> SyncRefusal? {
        if sequence <= lastSequence { return SyncRefusal(.expired) }
        if rules.schema.problem(in: changeSet) != nil { return SyncRefusal(otherVersion ? .schemaPending : .invalid) }
        if !changeSet.entries.allSatisfy({ rules.permission(clientID, $0) }) { return SyncRefusal(.forbidden) }
        return nil
    }

    /// The records updated or deleted: their current state decides whether the change is stale.
    package var basedOnKeys: [SyncRecordKey] {
        changeSet.entries.filter { $0.operation != .create }.map { $0.record.key }
    }

    /// The change set as written at `revision`.
    /// - Parameters:
    ///   - revision: the store's revision plus one.
    ///   - nextID: the store's next server id.
    ///   - current: the stored state (tombstones included) of ``basedOnKeys``.
    /// - Throws: a `stale` ``SyncRefusal`` when an updated or deleted record is gone, deleted, or
    ///   at another revision than the change was based on; a `forbidden` one when the type's
    ///   write rules refuse the device the record as stored or as written.
    package func write(revision: Int64, nextID: Int64, current: [SyncRecordKey: SyncRecord]) throws(SyncRefusal) -> SyncWrite {
        var nextID = nextID
        var serverIDs: [SyncRecordKey: Int64] = [:]
        for entry in changeSet.entries where entry.operation == .create {
            serverIDs[entry.record.key] = nextID
            nextID += 1
        }
        for entry in changeSet.entries where entry.operation != .create {
            guard let stored = current[entry.record.key], !stored.isDeleted, stored.revision == entry.record.revision else {
                throw SyncRefusal(.stale, involved: [entry.record.key])
            }
        }
        var written = SyncWrite(revision: revision, nextID: nextID, entries: [], references: [])
        for entry in changeSet.entries {
            let type = entry.record.type
            let id = serverIDs[entry.record.key] ?? entry.record.id
            guard var sent = entry.record.attributes else {
                guard rules.schema.type(named: type)?.mayWrite(from: current[entry.record.key]?.attributes, to: nil, by: identity) == true else {
                    throw SyncRefusal(.forbidden, involved: [entry.record.key])
                }
                written.entries.append(.init(.delete, SyncRecord(type: type, id: id, revision: revision, attributes: nil)))
                continue
            }
            if otherVersion, entry.operation == .update, let stored = current[entry.record.key]?.attributes {
                // What the device's schema did not have stays as stored.
                sent.merge(stored) { sentValue, _ in sentValue }
            }
            // A `null` attribute is an absent one.
            var attributes = sent.filter { $0.value != .null }
            for attribute in rules.schema.type(named: type)?.attributes ?? [] {
                guard let target = attribute.referencedType, let value = attributes[attribute.name]?.intValue, value < 0 else { continue }
                attributes[attribute.name] = .int(serverIDs[SyncRecordKey(type: target, id: value)] ?? value)
            }
            guard
                rules.schema.type(named: type)?.mayWrite(
                    from: entry.operation == .create ? nil : current[entry.record.key]?.attributes, to: attributes, by: identity) == true
            else { throw SyncRefusal(.forbidden, involved: [entry.record.key]) }
            let record = SyncRecord(type: type, id: id, revision: revision, attributes: attributes)
            for target in Set(rules.schema.references(of: record)).sorted() {
                written.references.append((source: record.key, target: target))
            }
            written.entries.append(.init(entry.operation, record, oldID: entry.operation == .create ? entry.record.id : nil))
        }
        return written
    }

    /// Whether the references hold once `write` is stored: no deleted record is still referenced
    /// (`referenced`), every reference points to a record that exists (`invalid`) and is live (`stale`).
    /// - Parameters:
    ///   - referrers: the referrers left of each of ``SyncWrite/deletedKeys``, by type and id (at most
    ///     ``referrersShown`` each).
    ///   - targets: the state after the write of each of ``SyncWrite/targetKeys`` that exists.
    package func referenceRefusal(
        of write: SyncWrite, referrers: [SyncRecordKey: [SyncRecordKey]], targets: [SyncRecordKey: SyncRecord]
    ) -> SyncRefusal? {
        for entry in write.entries {
            let key = entry.record.key
            if entry.record.isDeleted {
                if let found = referrers[key], !found.isEmpty { return SyncRefusal(.referenced, involved: [key] + found) }
            } else {
                for target in rules.schema.references(of: entry.record) {
                    guard let stored = targets[target] else { return SyncRefusal(.invalid, involved: [key]) }
                    if stored.isDeleted { return SyncRefusal(.stale, involved: [key, target]) }
                }
            }
        }
        return nil
    }

    /// The records whose state a refusal answers: those it names, then every existing record the
    /// change set touched, each once.
    package func keys(answering refusal: SyncRefusal) -> [SyncRecordKey] {
        // A pending change set stays queued as it is on the device: nothing to correct there.
        if refusal.reason == .schemaPending { return [] }
        var seen = Set<SyncRecordKey>()
        return (refusal.involved + changeSet.entries.map { $0.record.key }).filter {
            $0.id > 0 && rules.schema.type(named: $0.type) != nil && seen.insert($0).inserted
        }
    }

    /// Whether an outcome is recorded under `(clientID, sequence)`: every one but a
    /// `schemaPending` refusal, which the device sends again once it can be applied.
    package static func recordsOutcome(of outcome: SyncChangeSet) -> Bool {
        outcome.reason != SyncConflictReason.schemaPending.rawValue
    }

    /// The refusal's answer: `conflict: true`, the reason, and the server's state of
    /// ``keys(answering:)`` (a record that is gone or deleted as a delete), but for the records
    /// the device may not read.
    /// - Parameter stored: the stored state (tombstones included) of those keys.
    package func refused(_ refusal: SyncRefusal, stored: [SyncRecordKey: SyncRecord]) -> SyncChangeSet {
        let entries: [SyncChangeSet.Entry] = keys(answering: refusal).compactMap { key in
            if let record = stored[key], !record.isDeleted {
                return rules.schema.type(named: key.type)?.mayRead(record, by: identity) == true ? .init(.update, record) : nil
            }
            return .init(.delete, SyncRecord(type: key.type, id: key.id, revision: stored[key]?.revision ?? 0, attributes: nil))
        }
        return SyncChangeSet(sequence: changeSet.sequence, conflict: true, reason: refusal.reason.rawValue, entries: entries)
    }
}
