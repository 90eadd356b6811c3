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
    /// Upload answers that were 2xx but proved nothing, per namespace: neither the header
    /// `X-Hermes-Batch-Ack` naming the batch nor a collector's answer counting its records (a
    /// captive portal, a load balancer's default page, a wrong URL). Nothing was deleted: the
    /// batch went back to pending and is retried with backoff. A count that keeps growing means
    /// the collector URL does not reach a Hermes collector (docs/delivery.md, "Acknowledgement").
    public var unacknowledged: [String: Int]

    /// Creates a snapshot.
    public init(
        losses: [String: [LossReason: Int]], bufferedRecords: Int, quarantinedFiles: [String] = [],
        rejections: [String: [String: Int]] = [:], blocked: [String: UploadBlock] = [:], journalStalls: Int = 0,
        unacknowledged: [String: Int] = [:]
    ) {
        self.unacknowledged = unacknowledged
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
