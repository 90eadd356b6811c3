/// One crash group within a time window, as the console shows it: its summary, its latest crash
/// and its crashes over time.
public struct CrashGroupDetail: Sendable, Hashable {
    /// The group's figures in the window.
    public var summary: CrashGroupSummary
    /// The window's latest crash record of the group (its payload is the stack), or `nil` if the
    /// retention removed it.
    public var latest: StoredEvent?
    /// The crashes per bucket, oldest first; buckets without crashes are left out.
    public var buckets: [CrashBucket]

    /// Creates a detail.
    public init(summary: CrashGroupSummary, latest: StoredEvent?, buckets: [CrashBucket]) {
        self.summary = summary
        self.latest = latest
        self.buckets = buckets
    }
}
