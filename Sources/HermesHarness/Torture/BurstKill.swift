package import HermesWire

/// When `hermes torture burst` kills its child: right after its last `send` returned, or in
/// the middle of the burst, as soon as a number of sends drawn from the seed had returned.
package struct BurstKill: Equatable {
    package enum Moment: Equatable {
        case afterLastSend
        case midBurst(afterSends: Int)
    }

    package var moment: Moment

    /// The name of the moment, for the report: `after_burst` or `mid_burst`.
    package var name: String {
        switch moment {
        case .afterLastSend: "after_burst"
        case .midBurst: "mid_burst"
        }
    }

    /// The plan of run `run` (0-based) of a burst of `records`: even runs kill right after
    /// the last `send`, odd runs in the middle, after 1 to `records - 1` sends drawn from `random`.
    package static func draw(run: Int, records: Int, _ random: inout SplitMix64) -> BurstKill {
        guard !run.isMultiple(of: 2), records > 1 else { return BurstKill(moment: .afterLastSend) }
        return BurstKill(moment: .midBurst(afterSends: 1 + Int(random.next() % UInt64(records - 1))))
    }

    /// The child's arguments that make it announce the moment.
    package var childArguments: [String] {
        switch moment {
        case .afterLastSend: []
        case .midBurst(let sends): ["--announce-after", String(sends)]
        }
    }

    /// Waits for `child` to announce the moment (at most `timeout`) and kills it with SIGKILL
    /// at once.
    /// - Throws: ``RunFailure`` when the child never announced it.
    package func carryOut(on child: ChildProcess, timeout: Duration = .seconds(600)) throws {
        let line =
            switch moment {
            case .afterLastSend: BurstChild.Announcement.sent
            case .midBurst: BurstChild.Announcement.reached
            }
        let announced = child.waitFor(line.rawValue, occurrences: 1, timeout: timeout)
        child.sigkill()
        guard announced else { throw RunFailure("the burst child ended or stalled before announcing '\(line.rawValue)'") }
    }
}
