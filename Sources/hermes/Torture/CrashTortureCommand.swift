import ArgumentParser
import Foundation
import HermesWire

/// `hermes torture crash --runs N [--seed S] [--json]`.
struct CrashTortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill an app with SIGKILL at random moments and check every confirmed record reached the collector once.",
        discussion: """
            Each run starts a child app process on the same store; it sends numbered records and logs \
            those flush() confirmed. The run kills it during sends, a group commit, an upload, or at a \
            random time. A last run uploads what is left; then the collector's table is audited. \
            Exits 1 if a confirmed record is missing or a record is stored twice.
            """
    )

    @Option(help: "How many times the app is killed.")
    var runs = 10

    @Option(help: "Seed for the kill moments (random when omitted; printed).")
    var seed: UInt64?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() async throws {
        let seed = seed ?? UInt64.random(in: 0...UInt64.max)
        guard let executable = Bundle.main.executableURL else { throw TortureFailure("cannot find the hermes executable to start as the app") }
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = try await CrashTorture(runs: runs, seed: seed, executable: executable).run()

        var report = BenchReport()
        report.add("runs", Double(runs), "app processes killed")
        report.add("confirmed", Double(outcome.audit.confirmed), "records flush() confirmed")
        report.add("stored", Double(outcome.audit.stored), "records stored at the collector")
        report.add("lost_confirmed", Double(outcome.audit.lostConfirmed), "confirmed records missing (must be 0)")
        report.add("duplicates", Double(outcome.audit.duplicates), "extra copies stored (must be 0)")
        report.add("lost_unconfirmed", Double(outcome.audit.lostUnconfirmed), "accepted, unconfirmed when killed, never stored")
        for moment in ["send", "commit", "upload", "anytime"] {
            report.add("kills_\(moment)", Double(outcome.kills[moment] ?? 0), "kills at \(moment)")
        }
        report.add("seconds", started.duration(to: clock.now).seconds, "wall time (s)")
        print(json ? try report.json.jsonString() : report.table(title: "torture crash (seed \(seed))"))
        if !outcome.audit.kept { throw ExitCode(1) }
    }
}
