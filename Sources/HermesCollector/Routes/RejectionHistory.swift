import HermesWire

/// This instance's refused requests per minute over the last day: what the `rejections` alert
/// rule counts (each instance counts its own; the instance that evaluates the rules sees its own).
final class RejectionHistory: Sendable {
    /// Minutes kept.
    static let minutesKept: Int64 = 1_440

    private let minutes = Locked<[Int64: Int]>([:])
    private let wallClock: @Sendable () -> Int64

    init(wallClock: @escaping @Sendable () -> Int64) {
        self.wallClock = wallClock
    }

    /// Counts one refused request now.
    func count() {
        let minute = wallClock() / 60_000
        minutes.withLock { minutes in
            minutes[minute, default: 0] += 1
            if minutes.count > Self.minutesKept { minutes = minutes.filter { $0.key > minute - Self.minutesKept } }
        }
    }

    /// The requests refused from the minute of `since` on.
    func count(since: Int64) -> Int {
        let first = since / 60_000
        return minutes.withLock { $0.reduce(0) { $1.key >= first ? $0 + $1.value : $0 } }
    }
}
