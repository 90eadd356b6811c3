#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import HermesWire

/// When `hermes torture crash` kills its child: a short while after the child announced a
/// phase for the n-th time (during sends, during a group commit, mid-upload), or after a
/// random time whatever it is doing.
package struct KillPlan: Equatable {
    package enum Moment: Equatable {
        case phase(CrashChild.Phase, occurrence: Int, delayMicroseconds: UInt32)
        case after(milliseconds: UInt32)
    }

    package var moment: Moment

    /// The name of the moment, for the report: the phase, or `anytime`.
    package var name: String {
        switch moment {
        case .phase(let phase, _, _): phase.rawValue
        case .after: "anytime"
        }
    }

    /// A plan drawn from `random`: three in four at a phase, one in four at a random time.
    package static func draw(_ random: inout SplitMix64) -> KillPlan {
        let phases = CrashChild.Phase.allCases
        let pick = Int(random.next() % UInt64(phases.count + 1))
        guard pick < phases.count else {
            return KillPlan(moment: .after(milliseconds: 30 + UInt32(random.next() % 800)))
        }
        return KillPlan(moment: .phase(phases[pick], occurrence: 1 + Int(random.next() % 12), delayMicroseconds: UInt32(random.next() % 3_000)))
    }

    /// Waits for the moment (at most 30 s for a phase) and kills `child` with SIGKILL.
    package func carryOut(on child: ChildProcess) {
        switch moment {
        case .phase(let phase, let occurrence, let delay):
            if child.waitFor(phase.rawValue, occurrences: occurrence, timeout: .seconds(30)) { usleep(delay) }
        case .after(let milliseconds):
            usleep(milliseconds * 1_000)
        }
        child.sigkill()
    }
}
