/// One entry of a namespace's `monitorList`: a record type the namespace accepts, and how.
///
/// A type that is not in the list is rejected at `send`.
public struct MonitorItem: Sendable, Hashable {
    /// The record type, as passed to `send` (without a namespace prefix).
    public var type: String
    /// Send records of this type on an unmetered network (Wi-Fi) only.
    public var onlyWifi: Bool
    /// Trigger an upload as soon as a record of this type is stored (throttled per namespace).
    public var isRealtime: Bool
    /// Upload the records' payloads; when off, only their meta is sent.
    public var isUploadPayload: Bool
    /// The share of records of this type that is kept, from 0 (none) to 1 (all).
    public var sampleRate: Double

    /// Creates a monitor list entry; every flag defaults to off and the sample rate to 1.
    public init(type: String, onlyWifi: Bool = false, isRealtime: Bool = false, isUploadPayload: Bool = false, sampleRate: Double = 1.0) {
        self.type = type
        self.onlyWifi = onlyWifi
        self.isRealtime = isRealtime
        self.isUploadPayload = isUploadPayload
        self.sampleRate = sampleRate
    }
}
