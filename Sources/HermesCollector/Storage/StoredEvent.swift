public import HermesWire

/// A record as the collector stored it.
public struct StoredEvent: Sendable, Hashable {
    /// The store's id for it: grows with insertion (within one `createTime`, the order reads use).
    public var id: Int64
    /// The record's namespace.
    public var namespace: String
    /// The record's `REPORT_ID`.
    public var reportID: String
    /// The record's `MONITOR_TYPE`.
    public var monitorType: String
    /// The record's `CREATE_TIME`, in milliseconds since 1970.
    public var createTime: Int64
    /// The record's meta object.
    public var meta: JSONValue
    /// The record's payload, or `nil` when none was sent.
    public var payload: [UInt8]?
    /// The `X-Hermes-Device-Id` of the upload that brought it.
    public var deviceID: String?
    /// The `X-Hermes-Batch-Id` of the upload that brought it.
    public var batchID: String?
    /// When the collector received it, in milliseconds since 1970.
    public var receivedAt: Int64
    /// The id of the app key (or ingest token) the upload carried: the first 8 hex digits of its
    /// SHA-256, never the secret; `nil` for records stored before keys were recorded.
    public var appKeyID: String?

    /// Creates a stored event.
    public init(
        namespace: String, reportID: String, monitorType: String, createTime: Int64, meta: JSONValue,
        payload: [UInt8]?, deviceID: String?, batchID: String?, receivedAt: Int64, appKeyID: String? = nil, id: Int64 = 0
    ) {
        self.id = id
        self.namespace = namespace
        self.reportID = reportID
        self.monitorType = monitorType
        self.createTime = createTime
        self.meta = meta
        self.payload = payload
        self.deviceID = deviceID
        self.batchID = batchID
        self.receivedAt = receivedAt
        self.appKeyID = appKeyID
    }
}
