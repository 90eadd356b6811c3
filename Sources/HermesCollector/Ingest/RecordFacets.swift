package import HermesWire

/// What the collector reads from a record's meta at ingest beside the checked fields: the
/// user, session and app version the console filters records by (stored in columns of their
/// own, each indexed), the performance sample of a `hermes` launch, hang or network record
/// (added to the performance rollup), and the delivery health an `sdkHealth` record reports
/// (added to the overview's rollups). Read from the same parse that checks the line.
public struct RecordFacets: Sendable, Hashable {
    /// `USER_ID`, when it is a `text(_:)`.
    public var userID: String?
    /// `SESSION_ID`, when it is a `text(_:)`.
    public var sessionID: String?
    /// `APP_VERSION`, when it is a `text(_:)`.
    public var appVersion: String?
    /// The launch time, hang or request the record reports, for the performance rollup.
    public var sample: PerformanceSample?
    /// The delivery health an `sdkHealth` record reports.
    public var health: DeliveryHealthSample?

    /// The top-level meta members the facets are read from, beside the checked fields.
    package static let members = RecordCheck.KeptMembers(
        alsoKeeping: [RecordField.userID, RecordField.sessionID, RecordField.appVersion] + PerformanceSample.members
            + DeliveryHealthSample.members)
    private static let userID = members.slot(RecordField.userID)
    private static let sessionID = members.slot(RecordField.sessionID)
    private static let appVersion = members.slot(RecordField.appVersion)

    /// No facets.
    public init() {}

    /// The longest facet, in UTF-8 bytes: an index entry must stay far below PostgreSQL's limit
    /// of about 2,700 bytes.
    package static let maximumBytes = 256

    /// A meta value as a facet: a non-empty string of at most ``maximumBytes`` bytes without a
    /// NUL (which PostgreSQL's text cannot hold); `nil` otherwise.
    static func text(_ value: JSONValue?) -> String? {
        guard let value = value?.stringValue, !value.isEmpty, value.utf8.count <= maximumBytes, !value.utf8.contains(0) else { return nil }
        return value
    }

    /// The facets of a record from its meta's ``members``.
    init(meta: RecordCheck.KeptMeta, namespace: String, monitorType: String) {
        userID = Self.text(meta[Self.userID])
        sessionID = Self.text(meta[Self.sessionID])
        appVersion = Self.text(meta[Self.appVersion])
        if namespace == RecordNamespace.monitoring {
            sample = PerformanceSample(monitorType: monitorType, meta: meta, appVersion: appVersion)
            health = DeliveryHealthSample(monitorType: monitorType, meta: meta, appVersion: appVersion)
        }
    }

    /// The facets of a meta line (none when the line is not a valid record of `namespace`).
    init(metaLine: [UInt8], namespace: String) {
        switch RecordCheck.check(metaLine: metaLine, namespace: namespace, keeping: Self.members) {
        case .valid(let fields, let meta): self.init(meta: meta, namespace: namespace, monitorType: fields.monitorType)
        case .rejected: self.init()
        }
    }
}
