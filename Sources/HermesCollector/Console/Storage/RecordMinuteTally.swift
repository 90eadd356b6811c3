/// Counts a batch's new records by namespace and type, for the ``RecordMinute`` rollup.
struct RecordMinuteTally {
    /// A key of the rollup within one minute.
    struct Key: Hashable {
        let namespace: String
        let monitorType: String
    }

    private(set) var counts: [Key: Int64] = [:]

    /// Counts one new record.
    mutating func count(_ record: IngestRecord) {
        counts[Key(namespace: record.namespace, monitorType: record.monitorType), default: 0] += 1
    }
}
