import Foundation
import HermesWire

/// `hermes torture crash`: an app process killed with SIGKILL again and again while it sends,
/// commits and uploads, restarted each time on the same store, then drained; the collector's
/// table is audited against what `send` had accepted and `flush()` had confirmed.
struct CrashTorture {
    var runs: Int
    var seed: UInt64
    /// The `hermes` executable, started as the child.
    var executable: URL

    struct Outcome {
        var audit: DeliveryAudit
        /// Kills per moment (`send`, `commit`, `upload`, `anytime`).
        var kills: [String: Int]
    }

    func run() async throws -> Outcome {
        let (run, stored) = try await TortureCollector.session("torture", document: TortureScenario.document) { collector, directory in
            let common = ["torture", "crash-child", "--logs", directory.path]
                + TortureAppOptions.arguments(collector: collector, storage: directory.appendingPathComponent("app"))
            var kills: [String: Int] = [:]
            var random = SplitMix64(seed: seed)
            for run in 0..<runs {
                let plan = KillPlan.draw(&random)
                let arguments = common + ["--first", String(Int64(run) * 1_000_000)]
                try await onThread { [executable] in plan.carryOut(on: try ChildProcess(executable: executable, arguments: arguments)) }
                kills[plan.name, default: 0] += 1
            }
            let exit = try await onThread { [executable] in
                try ChildProcess(executable: executable, arguments: common + ["--drain"]).wait(timeout: .seconds(120))
            }
            guard exit.status == 0 else { throw RunFailure("the last run, which uploads what the store holds, ended with status \(exit.status)") }
            return (
                kills: kills,
                accepted: RangeLog.read(CrashChildCommand.acceptedPath(directory.path)),
                confirmed: RangeLog.read(CrashChildCommand.confirmedPath(directory.path))
            )
        }
        return Outcome(audit: DeliveryAudit(accepted: run.accepted, confirmed: run.confirmed, stored: stored), kills: run.kills)
    }
}
