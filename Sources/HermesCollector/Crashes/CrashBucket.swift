/// How many crashes of a group one time bucket holds, for a chart.
public struct CrashBucket: Sendable, Hashable {
    /// The bucket's first millisecond (since 1970): a multiple of the bucket's length.
    public var start: Int64
    /// How many crash records have a `CREATE_TIME` in the bucket.
    public var count: Int

    /// Creates a bucket.
    public init(start: Int64, count: Int) {
        self.start = start
        self.count = count
    }
}
