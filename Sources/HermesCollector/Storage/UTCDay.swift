/// UTC days of `CREATE_TIME` milliseconds, as retention and the day partitions count them.
package enum UTCDay {
    /// Milliseconds in a day.
    package static let milliseconds: Int64 = 86_400_000

    /// The first millisecond of the UTC day holding `time` (times before 1970 included).
    package static func start(of time: Int64) -> Int64 {
        time.floorDivided(by: milliseconds) * milliseconds
    }

    /// The retention cutoff for keeping `days` days at `now`: the days that end at or before it
    /// hold only records older than `days` days.
    package static func retentionCutoff(keeping days: Int, now: Int64) -> Int64 {
        now - Int64(days) * milliseconds
    }
}
