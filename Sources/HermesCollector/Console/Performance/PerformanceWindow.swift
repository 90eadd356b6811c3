/// The time slots of the performance page for its last `hours`: whole minutes, about 48 slots
/// (60 of one minute for one hour), the last ending with the current minute.
struct PerformanceWindow {
    /// The first slot's first minute (milliseconds since 1970 divided by 60,000).
    let firstMinute: Int64
    /// Each slot's width in minutes.
    let slotMinutes: Int64
    /// How many slots.
    let count: Int

    /// The slots of the last `hours` hours (1 or more) at `now` (ms).
    init(hours: Int64, now: Int64) {
        let minutes = max(hours, 1) * 60
        slotMinutes = max(minutes / 48, 1)
        count = Int((minutes + slotMinutes - 1) / slotMinutes)
        firstMinute = now.floorDivided(by: 60_000) + 1 - Int64(count) * slotMinutes
    }

    /// The minute after the last slot.
    var endMinute: Int64 { firstMinute + Int64(count) * slotMinutes }

    /// The first minute the breakdowns count: the start of the hour the first slot is in (they
    /// are kept by whole hours).
    var breakdownFirstMinute: Int64 {
        firstMinute.floorDivided(by: PerformanceCell.breakdownWidth) * PerformanceCell.breakdownWidth
    }

    /// Each slot's start, in milliseconds since 1970.
    var starts: [Int64] { (0..<count).map { (firstMinute + Int64($0) * slotMinutes) * 60_000 } }
}
