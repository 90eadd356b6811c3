import HermesWire

/// What one `sdkHealth` record in `hermes` reports of its device's delivery, read at ingest for
/// the overview's delivery health rollups: records lost since the previous report by reason, and
/// the queue depth.
public struct DeliveryHealthSample: Sendable, Hashable {
    /// The record's app version, `unknown` without one.
    public var appVersion: String
    /// Records lost by reason (each a facet, see `RecordFacets.text(_:)`), counts above 0 only.
    public var lost: [String: Int64]
    /// The meta's `DEVICE_ID`, or `nil` (the upload's device id stands in).
    public var device: String?
    /// The records waiting on the device, or `nil` when not reported.
    public var queueDepth: Int64?

    /// The meta members a sample is read from.
    static let members = [lostMember, queueDepthMember, RecordField.deviceID]
    private static let lostMember = "lost"
    private static let queueDepthMember = "queueDepth"

    /// Where ``members`` are in the facets' kept meta.
    private enum Slot {
        static let lost = RecordFacets.members.slot(DeliveryHealthSample.lostMember)
        static let queueDepth = RecordFacets.members.slot(DeliveryHealthSample.queueDepthMember)
        static let device = RecordFacets.members.slot(RecordField.deviceID)
    }

    /// The sample an `sdkHealth` record reports, or `nil` for other types.
    init?(monitorType: String, meta: RecordCheck.KeptMeta, appVersion: String?) {
        guard monitorType == MonitorType.sdkHealth else { return nil }
        self.appVersion = appVersion ?? "unknown"
        var lost: [String: Int64] = [:]
        for (reason, count) in meta[Slot.lost]?.objectValue ?? [:] {
            guard let reason = RecordFacets.text(.string(reason)), let count = count.intValue, count > 0 else { continue }
            lost[reason] = count
        }
        self.lost = lost
        device = RecordFacets.text(meta[Slot.device])
        queueDepth = meta[Slot.queueDepth]?.intValue
    }
}
