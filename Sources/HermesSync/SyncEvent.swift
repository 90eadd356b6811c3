public import HermesWire

/// What a ``SyncClient`` reports to the app through ``SyncClient/events``.
public enum SyncEvent: Sendable, Hashable {
    /// Records changed in the local data set because of the server: the device's own changes got
    /// their server ids and revisions, or other devices' changes arrived.
    case changed([SyncRecordKey])
    /// The server refused one of this device's change sets; the local data set now holds the
    /// server's state of the records involved.
    case conflict(SyncConflict)
    /// The device's copy was older than the server's history: it was replaced by a full copy
    /// (unsent changes kept).
    case reset
}

/// A change set of this device that the server refused, and what the server holds instead.
public struct SyncConflict: Sendable, Hashable {
    /// The change set's sequence on this device.
    public var sequence: Int64
    /// Why (`SyncConflictReason`).
    public var reason: SyncConflictReason?
    /// What the device had sent.
    public var sent: SyncChangeSet
    /// The server's state of the records involved (a deleted record has no attributes).
    public var server: [SyncRecord]

    /// A conflict.
    public init(sequence: Int64, reason: SyncConflictReason?, sent: SyncChangeSet, server: [SyncRecord]) {
        self.sequence = sequence
        self.reason = reason
        self.sent = sent
        self.server = server
    }
}

/// What one ``SyncClient/sync(maximumExchanges:)`` did.
public struct SyncReport: Sendable, Hashable {
    /// Requests sent.
    public var exchanges = 0
    /// Sequences of this device's change sets the server applied.
    public var applied: [Int64] = []
    /// This device's change sets the server refused.
    public var conflicts: [SyncConflict] = []
    /// Sequences of this device's change sets that wait, still queued, for the server and the
    /// app to speak one schema version (`schemaPending`); the sync stops at the first.
    public var pending: [Int64] = []
    /// Records received from other devices (including deletes).
    public var received = 0
    /// The device's revision afterwards.
    public var maxRevision: Int64 = 0
    /// Whether the device's copy was replaced by a full copy.
    public var reset = false

    /// An empty report.
    public init() {}
}
