/// A snapshot of what a client lost and holds, and which namespaces cannot upload.
public struct Diagnostics: Sendable, Hashable {
    /// Records that left the store without reaching the collector, per namespace and reason.
    public var losses: [String: [LossReason: Int]]
    /// Records the collector rejected (``LossReason/rejected``), per namespace and the
    /// collector's code (`invalidField`, `refusedByRule`, …).
    public var rejections: [String: [String: Int]]
    /// Namespaces whose uploads are paused because the collector refused them, with why.
    /// Their records are kept.
    public var blocked: [String: UploadBlock]
    /// Records accepted and waiting in memory for the store.
    public var bufferedRecords: Int
    /// Corrupt store files moved aside (kept for diagnosis). Their rows count as
    /// ``LossReason/quarantined`` when the file could still be read.
    public var quarantinedFiles: [String]

    /// Creates a snapshot.
    public init(
        losses: [String: [LossReason: Int]], bufferedRecords: Int, quarantinedFiles: [String] = [],
        rejections: [String: [String: Int]] = [:], blocked: [String: UploadBlock] = [:]
    ) {
        self.losses = losses
        self.rejections = rejections
        self.blocked = blocked
        self.bufferedRecords = bufferedRecords
        self.quarantinedFiles = quarantinedFiles
    }

    /// Losses in `namespace` for `reason` (0 when none).
    public func lost(_ namespace: String, _ reason: LossReason) -> Int {
        losses[namespace]?[reason] ?? 0
    }
}
