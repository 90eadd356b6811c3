import Foundation
import HermesWire

/// `hermes torture crash`: an app process killed with SIGKILL again and again while it sends,
/// commits and uploads, restarted each time on the same store, then drained; the collector's
/// table is audited against what `flush()` had confirmed.
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-torture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let collector = try await TortureCollector.start(in: directory, document: TortureScenario.document, logger: TortureLog.quiet)
        let common = [
            "torture", "crash-child", "--collector", collector.baseURL.absoluteString, "--key", Hex.string(collector.key),
            "--storage", directory.appendingPathComponent("app").path, "--logs", directory.path,
        ]
        var kills: [String: Int] = [:]
        do {
            var random = SplitMix64(seed: seed)
            for run in 0..<runs {
                let plan = KillPlan.draw(&random)
                let arguments = common + ["--first", String(Int64(run) * 1_000_000)]
                try await onThread { [executable] in plan.carryOut(on: try ChildProcess(executable: executable, arguments: arguments)) }
                kills[plan.name, default: 0] += 1
            }
            let status = try await onThread { [executable] in
                try ChildProcess(executable: executable, arguments: common + ["--drain"]).wait(timeout: .seconds(120))
            }
            guard status == 0 else { throw TortureFailure("the last run, which uploads what the store holds, ended with status \(status)") }
        } catch {
            try? await collector.stop()
            throw error
        }
        try await collector.stop()
        let audit = DeliveryAudit(
            accepted: RangeLog.read(CrashChildCommand.acceptedPath(directory.path)),
            confirmed: RangeLog.read(CrashChildCommand.confirmedPath(directory.path)),
            stored: try collector.storedCounts()
        )
        return Outcome(audit: audit, kills: kills)
    }
}

/// A torture run that could not be carried out (as opposed to one whose audit failed).
struct TortureFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
