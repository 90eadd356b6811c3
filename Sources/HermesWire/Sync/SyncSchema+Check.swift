extension SyncSchema {
    /// Checks what can be checked without the data set: every type known; created ids negative
    /// (temporary), updated and deleted ids positive; attributes known and of their kind; a
    /// negative reference names a record created in the same change set with the referenced type.
    /// - Returns: `nil` when the change set is well formed, or what is wrong.
    public func problem(in changeSet: SyncChangeSet) -> String? {
        let created = Set(changeSet.entries.filter { $0.operation == .create }.map { SyncRecordKey(type: $0.record.type, id: $0.record.id) })
        for entry in changeSet.entries {
            let record = entry.record
            guard let type = type(named: record.type) else { return "unknown type \(record.type)" }
            switch entry.operation {
            case .create where record.id >= 0: return "\(record.type) \(record.id): a created record needs a negative temporary id"
            case .update where record.id <= 0, .delete where record.id <= 0:
                return "\(record.type) \(record.id): only records with a server id can be \(entry.operation.rawValue)d"
            default: break
            }
            guard let attributes = record.attributes else { continue }
            if let problem = type.problem(in: attributes) { return "\(record.type) \(record.id): \(problem)" }
            for attribute in type.attributes {
                guard let target = attribute.referencedType, let id = attributes[attribute.name]?.intValue, id < 0 else { continue }
                if !created.contains(SyncRecordKey(type: target, id: id)) {
                    return "\(record.type) \(record.id): \(attribute.name) refers to \(target) \(id), not created in this change set"
                }
            }
        }
        return nil
    }

    /// The references a record's attributes hold, as keys of the records they point to.
    public func references(of record: SyncRecord) -> [SyncRecordKey] {
        guard let attributes = record.attributes, let type = type(named: record.type) else { return [] }
        return type.attributes.compactMap { attribute in
            guard let target = attribute.referencedType, let id = attributes[attribute.name]?.intValue else { return nil }
            return SyncRecordKey(type: target, id: id)
        }
    }
}
