/// What one retention pass removed.
public struct RetentionOutcome: Sendable, Hashable {
    /// Day partitions dropped whole (PostgreSQL); 0 for a store that deletes rows.
    public var daysDropped: Int
    /// Records removed.
    public var recordsRemoved: Int

    /// Creates an outcome.
    public init(daysDropped: Int, recordsRemoved: Int) {
        self.daysDropped = daysDropped
        self.recordsRemoved = recordsRemoved
    }
}
