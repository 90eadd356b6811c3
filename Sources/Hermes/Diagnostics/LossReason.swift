/// Why a record left the store without reaching the collector.
public struct LossReason: Hashable, Sendable, CustomStringConvertible {
    /// The reason's name, as used in metrics labels.
    public let name: String

    private init(_ name: String) { self.name = name }

    public var description: String { name }

    /// The namespace held more than `maxCacheCount` rows; the oldest were evicted.
    public static let evicted = LossReason("evicted")
    /// The record was older than `expirationDay`.
    public static let expired = LossReason("expired")
    /// The record's namespace is no longer configured (neither the server, the cache nor a
    /// local default names it), and the record was older than the default `expirationDay` (15).
    public static let orphaned = LossReason("orphaned")
    /// The record's type left its namespace's `monitorList` (so it was no longer uploaded), and
    /// the record was older than `expirationDay`.
    public static let unmonitored = LossReason("unmonitored")
    /// The record belonged to another app version and `isUpdateClear` is on.
    public static let appVersionCleared = LossReason("app_version_cleared")
    /// The record was larger than `maxBodyMByte`.
    public static let oversize = LossReason("oversize")
    /// The collector stored the record's batch but rejected this record on its own (its checks
    /// or the deployment's rules); ``Diagnostics/rejections`` has the collector's codes.
    public static let rejected = LossReason("rejected")
    /// The store file was corrupt and moved aside with the record in it.
    public static let quarantined = LossReason("quarantined")
    /// The record was accepted but the store could not be written before the client shut down.
    public static let unsaved = LossReason("unsaved")

    /// A crash tore the record's journal frame while `send` was copying it in (so that `send`
    /// never returned). Counted under namespace `*`: a torn frame's own cannot be trusted.
    public static let torn = LossReason("torn")

    /// `deleteLocalData()` erased the record (the user's right to erasure).
    public static let erased = LossReason("erased")
    /// Consent was set to ``Consent/denied``: the records stored before were deleted.
    public static let consentDenied = LossReason("consent_denied")

    /// Every reason.
    public static let all: [LossReason] = [
        .evicted, .expired, .orphaned, .unmonitored, .appVersionCleared, .oversize, .rejected, .quarantined, .unsaved, .torn, .erased, .consentDenied,
    ]
}
