/// One record of an accepted upload, checked and ready to store.
///
/// The upload route builds it from a meta line that passed `RecordCheck` (the fields the
/// collector relies on) and the deployment's ``CollectorConfiguration/recordRule``.
public struct IngestRecord: Sendable, Hashable {
    /// The record's namespace (`NAMESPACE`), equal to the request's `X-Hermes-Namespace`.
    public var namespace: String
    /// The record's id (`REPORT_ID`), unique within its namespace.
    public var reportID: String
    /// The record's type (`MONITOR_TYPE`).
    public var monitorType: String
    /// When the record was made (`CREATE_TIME`), in milliseconds since 1970.
    public var createTime: Int64
    /// The meta line as received: one compact JSON object (UTF-8, as every line that passes
    /// the check is; a PostgreSQL store binds these bytes as they are).
    public var meta: [UInt8]
    /// The record's payload, or `nil` when none was sent.
    public var payload: [UInt8]?
    /// What the collector reads from the meta beside the checked fields.
    public var facets: RecordFacets

    /// Creates a record from values already checked, with the meta's facets when the caller
    /// has read them (`nil` reads them from `meta`: a second parse).
    public init(
        namespace: String, reportID: String, monitorType: String, createTime: Int64, meta: [UInt8], payload: [UInt8]?,
        facets: RecordFacets? = nil
    ) {
        self.namespace = namespace
        self.reportID = reportID
        self.monitorType = monitorType
        self.createTime = createTime
        self.meta = meta
        self.payload = payload
        self.facets = facets ?? RecordFacets(metaLine: meta, namespace: namespace)
    }
}
