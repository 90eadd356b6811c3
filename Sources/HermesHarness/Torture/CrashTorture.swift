package import Foundation
package import HermesWire

/// `hermes torture crash`: an app process killed with SIGKILL again and again while it sends,
/// commits and uploads, restarted each time on the same store, then drained; the collector's
/// table is audited against what `send` had accepted and `flush()` had confirmed.
package struct CrashTorture {
    package var runs: Int
    package var seed: UInt64
    /// The `hermes` executable, started as the child.
    package var executable: URL

    package init(runs: Int, seed: UInt64, executable: URL) {
        self.runs = runs
        self.seed = seed
        self.executable = executable
    }

    package struct Outcome {
        package var audit: DeliveryAudit
        /// Kills per moment (`send`, `commit`, `upload`, `anytime`).
        package var kills: [String: Int]
    }

    package func run() async throws -> Outcome {
        let (run, stored) = try await TortureCollector.session("torture", document: TortureScenario.document) { collector, directory in
            let common =
                ["torture", "crash-child", "--logs", directory.path]
                + TortureApp.arguments(collector: collector, storage: directory.appendingPathComponent("app"))
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
                accepted: RangeLog.read(CrashChild.acceptedPath(directory.path)),
                confirmed: RangeLog.read(CrashChild.confirmedPath(directory.path))
            )
        }
        return Outcome(audit: DeliveryAudit(accepted: run.accepted, confirmed: run.confirmed, stored: stored), kills: run.kills)
    }
}

extension CrashTorture.Outcome {
    /// The figures `hermes torture crash` prints for a run of `runs` kills.
    package func report(runs: Int) -> BenchReport {
        var report = BenchReport()
        report.add("runs", Double(runs), "app processes killed")
        report.add("accepted", Double(audit.accepted), "records send accepted")
        report.add("confirmed", Double(audit.confirmed), "records flush() confirmed")
        report.add("stored", Double(audit.stored), "records stored at the collector")
        report.add("lost_accepted", Double(audit.lostAccepted), "accepted records missing (must be 0)")
        report.add("lost_confirmed", Double(audit.lostConfirmed), "  of which flush() had confirmed")
        report.add("duplicates", Double(audit.duplicates), "extra copies stored (must be 0)")
        for moment in ["send", "commit", "upload", "anytime"] {
            report.add("kills_\(moment)", Double(kills[moment] ?? 0), "kills at \(moment)")
        }
        return report
    }
}
