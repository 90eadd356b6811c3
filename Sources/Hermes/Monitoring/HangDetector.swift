/// The decisions of the hang watchdog, without threads or clocks: the watchdog calls
/// ``tick(now:)`` every half threshold and ``answered(_:now:)`` when the watched queue runs a
/// ping; the detector says when to ping and when a hang ended and how long it was.
///
/// One ping is outstanding at a time and each is answered once, so a hang is reported once,
/// when it ends, with its whole duration (measured from the ping the queue did not run in time,
/// so it is at most half a threshold longer than the stall itself). A hang the process never
/// comes out of (killed while stuck) is not reported.
struct HangDetector: Sendable {
    enum Action: Sendable, Equatable {
        case none
        /// Run ping `id` on the watched queue.
        case ping(id: UInt64)
        /// The queue was stuck this long, past the threshold.
        case reportHang(duration: Duration)
    }

    let threshold: Duration
    private var outstanding: (id: UInt64, sentAt: Duration)?
    private var nextID: UInt64 = 0

    init(threshold: Duration) {
        self.threshold = threshold
    }

    /// How often the watchdog should tick.
    var interval: Duration { threshold / 2 }

    /// A tick at `now` (monotonic time): a new ping unless one is still waiting.
    mutating func tick(now: Duration) -> Action {
        guard outstanding == nil else { return .none }
        nextID += 1
        outstanding = (nextID, now)
        return .ping(id: nextID)
    }

    /// The queue ran ping `id` at `now`: a hang ends if it waited at least the threshold.
    mutating func answered(_ id: UInt64, now: Duration) -> Action {
        guard let outstanding, outstanding.id == id else { return .none }
        self.outstanding = nil
        let waited = now - outstanding.sentAt
        return waited >= threshold ? .reportHang(duration: waited) : .none
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
