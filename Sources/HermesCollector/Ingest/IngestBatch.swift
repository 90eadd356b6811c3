/// The records of one accepted upload, with where they came from: what a store writes in one
/// transaction.
public struct IngestBatch: Sendable, Hashable {
    /// The records, in the order of the packet.
    public var records: [IngestRecord]
    /// The sender's `X-Hermes-Device-Id`, kept for diagnosis.
    public var deviceID: String?
    /// The sender's `X-Hermes-Batch-Id`, kept for diagnosis.
    public var batchID: String?
    /// When the collector received the batch, in milliseconds since 1970.
    public var receivedAt: Int64
    /// The id of the app key the upload carried (the first 8 hex digits of its SHA-256, never
    /// the key), stored with each record; `nil` when stored otherwise.
    public var appKeyID: String?

    /// Creates a batch.
    public init(records: [IngestRecord], deviceID: String?, batchID: String?, receivedAt: Int64) {
        self.records = records
        self.deviceID = deviceID
        self.batchID = batchID
        self.receivedAt = receivedAt
    }
}
