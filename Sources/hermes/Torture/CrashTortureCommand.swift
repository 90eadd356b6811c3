import ArgumentParser
import Foundation
import HermesHarness
import HermesWire

/// `hermes torture crash --runs N [--seed S] [--json]`.
struct CrashTortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill an app with SIGKILL at random moments and check every accepted record reached the collector once.",
        discussion: """
            Each run starts a child app process on the same store; it sends numbered records and logs \
            those send accepted and those flush() confirmed. The run kills it during sends, a group \
            commit, an upload, or at a random time. A last run uploads what is left; then the \
            collector's table is audited. Exits 1 if an accepted record is missing or a record is \
            stored twice.
            """
    )

    @Option(help: "How many times the app is killed.")
    var runs = 10

    @OptionGroup var options: TortureRunOptions

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() async throws {
        let executable = try ChildProcess.hermesExecutable()
        try await options.report("torture crash") { seed in
            let outcome = try await CrashTorture(runs: runs, seed: seed, executable: executable).run()
            return (outcome.report(runs: runs), outcome.audit.kept)
        }
    }
}
