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
    /// Records accepted and waiting in memory for the store (the journal could not take them:
    /// its limit was reached or no segment could be made). These are the only accepted records
    /// a process death can lose.
    public var bufferedRecords: Int
    /// Times a `send` found no spare journal segment ready and waited for one (about a
    /// millisecond each). Hermes keeps more spares after a stall; a count that keeps growing
    /// means bursts outrun the disk.
    public var journalStalls: Int
    /// Corrupt store files moved aside (kept for diagnosis). Their rows count as
    /// ``LossReason/quarantined`` when the file could still be read.
    public var quarantinedFiles: [String]

    /// Creates a snapshot.
    public init(
        losses: [String: [LossReason: Int]], bufferedRecords: Int, quarantinedFiles: [String] = [],
        rejections: [String: [String: Int]] = [:], blocked: [String: UploadBlock] = [:], journalStalls: Int = 0
    ) {
        self.journalStalls = journalStalls
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
