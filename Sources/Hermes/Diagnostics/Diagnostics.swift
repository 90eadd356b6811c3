/// A snapshot of what a client lost and holds.
public struct Diagnostics: Sendable, Hashable {
    /// Records that left the store without reaching the collector, per namespace and reason.
    public var losses: [String: [LossReason: Int]]
    /// Records accepted and waiting in memory for the store.
    public var bufferedRecords: Int
    /// Corrupt store files moved aside (kept for diagnosis). Their rows count as
    /// ``LossReason/quarantined`` when the file could still be read.
    public var quarantinedFiles: [String]

    /// Creates a snapshot.
    public init(losses: [String: [LossReason: Int]], bufferedRecords: Int, quarantinedFiles: [String] = []) {
        self.losses = losses
        self.bufferedRecords = bufferedRecords
        self.quarantinedFiles = quarantinedFiles
    }

    /// Losses in `namespace` for `reason` (0 when none).
    public func lost(_ namespace: String, _ reason: LossReason) -> Int {
        losses[namespace]?[reason] ?? 0
    }
}
