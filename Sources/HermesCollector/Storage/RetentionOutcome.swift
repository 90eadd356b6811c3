/// What one retention pass removed.
public struct RetentionOutcome: Sendable, Hashable {
    /// Day partitions dropped whole (PostgreSQL); 0 for a store that deletes rows.
    public var daysDropped: Int
    /// Records removed: exact on SQLite; on PostgreSQL each dropped day adds the planner's
    /// estimate of its rows (from `pg_class.reltuples`, so that counting does not take longer as
    /// the day grows), and rows deleted from the default partition count exactly.
    public var recordsRemoved: Int

    /// Creates an outcome.
    public init(daysDropped: Int, recordsRemoved: Int) {
        self.daysDropped = daysDropped
        self.recordsRemoved = recordsRemoved
    }
}
