/// How many new records of one namespace and type a collector stored in one minute of arrival:
/// the rollup the console's overview reads instead of scanning records. Kept by the store in the
/// same transaction as the records (duplicates are not counted).
public struct RecordMinute: Sendable, Hashable {
    /// The minute of arrival: the receive time in milliseconds divided by 60,000.
    public var minute: Int64
    /// The namespace.
    public var namespace: String
    /// The stored type (`MONITOR_TYPE`).
    public var monitorType: String
    /// How many new records.
    public var records: Int64

    /// Creates a rollup row.
    public init(minute: Int64, namespace: String, monitorType: String, records: Int64) {
        self.minute = minute
        self.namespace = namespace
        self.monitorType = monitorType
        self.records = records
    }
}
