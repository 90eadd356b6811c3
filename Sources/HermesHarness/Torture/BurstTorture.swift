package import Foundation
package import HermesWire

/// `hermes torture burst`: an app process sends a burst of records as fast as it can and is
/// killed with SIGKILL right after its last `send` returned, or in the middle of the burst;
/// a second process on the same store recovers and uploads. Every record whose `send` had
/// returned `accepted` must reach the collector once.
package struct BurstTorture {
    package var records: Int
    package var runs: Int
    package var seed: UInt64
    /// The `hermes` executable, started as the child.
    package var executable: URL

    package init(records: Int, runs: Int, seed: UInt64, executable: URL) {
        self.records = records
        self.runs = runs
        self.seed = seed
        self.executable = executable
    }

    /// The `hermes` namespace as a new user gets it, but with room for every record of the
    /// burst (`maxCacheCount` 1,000,000), so that no eviction hides or causes a loss.
    package static var document: ConfigurationDocument {
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.maxCacheCount = 1_000_000
        return ConfigurationDocument(revision: 1, namespaces: [ConfigurationDocument.hermesNamespace: hermes])
    }

    package struct Outcome {
        package var audit: DeliveryAudit
        /// Sends that returned a rejection.
        package var rejected: Int
        /// Records the recovering clients counted as torn.
        package var torn: Int
        /// Kills per moment (`after_burst`, `mid_burst`).
        package var kills: [String: Int]
    }

    package func run() async throws -> Outcome {
        let (run, stored) = try await TortureCollector.session("burst", document: Self.document) { collector, directory in
            let common = ["torture", "burst-child"] + TortureApp.arguments(collector: collector, storage: directory.appendingPathComponent("app"))
            var outcome = (accepted: Set<Int64>(), rejected: 0, torn: 0, kills: [String: Int]())
            var random = SplitMix64(seed: seed)
            for run in 0..<runs {
                let kill = BurstKill.draw(run: run, records: records, &random)
                let first = Int64(run) * Int64(records)
                let marks = directory.appendingPathComponent("sends-\(run).map").path
                let burst = common + ["--marks", marks, "--first", String(first), "--records", String(records)] + kill.childArguments
                try await onThread { [executable] in try kill.carryOut(on: try ChildProcess(executable: executable, arguments: burst)) }
                outcome.kills[kill.name, default: 0] += 1
                let recovery = try await onThread { [executable] in
                    try ChildProcess(executable: executable, arguments: common + ["--recover"]).wait(timeout: .seconds(600))
                }
                guard recovery.status == 0 else { throw RunFailure("the recovery after run \(run) ended with status \(recovery.status)") }
                outcome.torn += BurstChild.torn(in: recovery.lines)
                let sends = SendMap.marks(at: marks)
                outcome.accepted.formUnion(SendMap.numbers(.accepted, in: sends, first: first))
                outcome.rejected += SendMap.numbers(.rejected, in: sends, first: first).count
            }
            return outcome
        }
        return Outcome(audit: DeliveryAudit(accepted: run.accepted, stored: stored), rejected: run.rejected, torn: run.torn, kills: run.kills)
    }
}

extension BurstTorture.Outcome {
    /// The figures `hermes torture burst` prints for a run of `runs` kills.
    package func report(runs: Int) -> BenchReport {
        var report = BenchReport()
        report.add("runs", Double(runs), "app processes killed")
        report.add("accepted", Double(audit.accepted), "sends that returned accepted")
        report.add("rejected", Double(rejected), "sends that returned a rejection")
        report.add("stored", Double(audit.stored), "records stored at the collector")
        report.add("lost", Double(audit.lostAccepted), "accepted records missing (must be 0)")
        report.add("torn", Double(torn), "records the recovery found torn")
        report.add("duplicates", Double(audit.duplicates), "extra copies stored (must be 0)")
        for moment in ["after_burst", "mid_burst"] {
            report.add("kills_\(moment)", Double(kills[moment] ?? 0), "kills \(moment.replacingOccurrences(of: "_", with: " "))")
        }
        return report
    }
}
