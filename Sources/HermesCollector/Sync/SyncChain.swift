import HermesWire

/// What the change sets of one request applied so far tell the ones after them, which a device
/// queued before it knew the outcomes: the server ids its temporary ids took, and the revisions
/// its records moved to. A later change set is read through them before it is applied, as the
/// device would have rewritten it had it waited for each answer (its renames and rebases).
///
/// A record another device changed in between is still stale: a base revision is moved only
/// from the one the earlier change set was based on to the one it was committed at.
struct SyncChain {
    /// The server id each temporary id of the request took.
    private var serverIDs: [SyncRecordKey: Int64] = [:]
    /// For each record an earlier change set wrote: the revision the device based it on (the one
    /// its later change sets carry too), and the one it was committed at.
    private var moves: [SyncRecordKey: (from: Int64, to: Int64)] = [:]

    /// `changeSet` with the temporary ids of records created earlier in the request replaced by
    /// their server ids (its records' and its references'), and the base revisions of records
    /// written earlier moved to the revisions they were committed at.
    func resolving(_ changeSet: SyncChangeSet, schema: SyncSchema) -> SyncChangeSet {
        guard !serverIDs.isEmpty || !moves.isEmpty else { return changeSet }
        var resolved = changeSet
        resolved.entries = changeSet.entries.map { entry in
            var record = entry.record
            if entry.operation != .create, let id = serverIDs[record.key] { record.id = id }
            if entry.operation != .create, let move = moves[record.key], move.from == record.revision { record.revision = move.to }
            for attribute in schema.type(named: record.type)?.attributes ?? [] {
                guard let target = attribute.referencedType, let id = record.attributes?[attribute.name]?.intValue, id < 0,
                    let serverID = serverIDs[SyncRecordKey(type: target, id: id)]
                else { continue }
                record.attributes?[attribute.name] = .int(serverID)
            }
            return SyncChangeSet.Entry(entry.operation, record, oldID: entry.oldID)
        }
        return resolved
    }

    /// Notes what `sent`, as the device sent it, became when it was applied as `outcome`.
    mutating func note(_ sent: SyncChangeSet, applied outcome: SyncChangeSet) {
        guard let revision = outcome.revision else { return }
        for entry in outcome.entries {
            if let oldID = entry.oldID { serverIDs[SyncRecordKey(type: entry.record.type, id: oldID)] = entry.record.id }
        }
        for entry in sent.entries where entry.operation != .delete {
            // A record the device made has no server revision yet: its changes are based on 0.
            let madeHere = entry.record.id < 0
            guard let id = madeHere ? serverIDs[entry.record.key] : entry.record.id else { continue }
            moves[SyncRecordKey(type: entry.record.type, id: id)] = (from: madeHere ? 0 : entry.record.revision, to: revision)
        }
    }
}
