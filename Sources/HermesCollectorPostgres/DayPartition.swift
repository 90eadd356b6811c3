import HermesCollector

/// One day of the `events` table: a partition holding the records whose `CREATE_TIME` falls in
/// that UTC day, named `events_YYYYMMDD`.
///
/// Pure: the store creates, detaches and drops the partitions this names.
package struct DayPartition: Hashable, Comparable, Sendable {
    package static let millisecondsPerDay = UTCDay.milliseconds

    /// Days since 1970-01-01 (UTC).
    package let day: Int64

    /// The day holding `milliseconds` since 1970 (UTC).
    package init(containing milliseconds: Int64) {
        day = UTCDay.start(of: milliseconds) / Self.millisecondsPerDay
    }

    package init(day: Int64) {
        self.day = day
    }

    /// The first `CREATE_TIME` of the day (inclusive).
    package var lowerBound: Int64 { day * Self.millisecondsPerDay }
    /// The first `CREATE_TIME` of the next day (exclusive).
    package var upperBound: Int64 { (day + 1) * Self.millisecondsPerDay }

    /// `events_YYYYMMDD`, the table name (a safe SQL identifier: letters, digits, underscore).
    package var tableName: String {
        let (year, month, dayOfMonth) = Self.civil(day)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "events_\(year)\(two(month))\(two(dayOfMonth))"
    }

    /// The day named by a table name this type made, or `nil` for any other name.
    package init?(tableName: String) {
        guard tableName.hasPrefix("events_"), tableName.count == 15,
            let digits = Int64(tableName.dropFirst(7)), digits > 0
        else { return nil }
        let year = digits / 10_000, month = digits / 100 % 100, dayOfMonth = digits % 100
        guard (1...12).contains(month), (1...31).contains(dayOfMonth) else { return nil }
        day = Self.days(year: year, month: month, day: dayOfMonth)
        guard Self.civil(day) == (year, month, dayOfMonth) else { return nil }
    }

    /// The days from `behind` days before the day of `now` to `ahead` days after it.
    package static func around(_ now: Int64, behind: Int, ahead: Int) -> [DayPartition] {
        let today = DayPartition(containing: now).day
        return (today - Int64(behind)...today + Int64(ahead)).map(DayPartition.init(day:))
    }

    package static func < (lhs: DayPartition, rhs: DayPartition) -> Bool { lhs.day < rhs.day }

    // Howard Hinnant's civil-from-days and days-from-civil (proleptic Gregorian, UTC).
    private static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
