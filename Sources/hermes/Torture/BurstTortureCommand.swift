import ArgumentParser
import Foundation
import HermesHarness
import HermesWire

/// `hermes torture burst [--records N] [--runs R] [--seed S] [--json]`.
struct BurstTortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst",
        abstract: "Kill an app with SIGKILL during or right after a burst of sends and check every accepted record reached the collector once.",
        discussion: """
            Each run starts a child app process that sends --records events of five properties as \\
            fast as it can and marks, in a shared memory-mapped file, what each send returned. Even \\
            runs kill it right after its last send returned, odd runs in the middle of the burst (the \\
            moment drawn from the seed). A second process on the same store recovers and uploads to \\
            an embedded collector. Exits 1 if a record whose send returned accepted is missing, or a \\
            record is stored twice; a record whose send had not returned may be missing.
            """
    )

    @Option(help: "Records each run sends.")
    var records = 100_000

    @Option(help: "How many times the app is killed.")
    var runs = 4

    @OptionGroup var options: TortureRunOptions

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() async throws {
        let executable = try ChildProcess.hermesExecutable()
        try await options.report("torture burst") { seed in
            let outcome = try await BurstTorture(records: records, runs: runs, seed: seed, executable: executable).run()
            return (outcome.report(runs: runs), outcome.audit.kept)
        }
    }
}
