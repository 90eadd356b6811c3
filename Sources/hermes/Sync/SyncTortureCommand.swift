import ArgumentParser
import Foundation
import HermesCollector
import HermesHarness

/// `hermes sync torture --devices N --seconds S [--seed N] [--json]`.
struct SyncTortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture",
        abstract: "Many devices change one data set at once through faults; check they all end with the server's rows.",
        discussion: """
            Devices (most in this process, each with its own SQLite file; a few as processes killed \
            with SIGKILL and started again) make random creates, updates and deletes on a 12-type \
            schema, go offline at random, and lose answers the server committed; the server \
            restarts once. Then every device syncs until its queue is empty, and the run checks: \
            every device holds the server's rows (diverged), every change set a device saved has \
            one outcome (lost), no record was created twice (duplicates), conflicts happened, and \
            no device's revision went backwards. Exits 1 otherwise.
            """
    )

    @Option(help: "How many devices share the data set.")
    var devices = 50

    @Option(help: "How long the devices make changes, in seconds.")
    var seconds = 10.0

    @Option(help: "How many of the devices run as processes killed with SIGKILL.")
    var processes = 3

    @Option(
        help: ArgumentHelp(
            "Keep the server's data set on this PostgreSQL server (postgres://…), in a database made for the run and dropped after it. Default: a SQLite file.",
            valueName: "url"
        ))
    var storage: String?

    @OptionGroup var options: TortureRunOptions

    func validate() throws {
        guard devices >= 2 else { throw ValidationError("--devices must be at least 2") }
        guard seconds > 0, seconds <= 3_600 else { throw ValidationError("--seconds must be between 0 and 3600") }
        guard (0...devices).contains(processes) else { throw ValidationError("--processes must be between 0 and --devices") }
        if let storage, case .sqlite = StorageLocation(storage) {
            throw ValidationError("--storage must be a postgres:// URL (the default is a SQLite file)")
        }
    }

    func run() async throws {
        let executable = processes > 0 ? try ChildProcess.hermesExecutable() : nil
        try await options.report("sync torture") { seed in
            let outcome = try await SyncTorture(
                devices: devices, seconds: seconds, seed: seed, processes: processes, executable: executable, postgresServer: storage
            ).run()
            let report = outcome.report(processes: processes)
            if outcome.regressions > 0 {
                FileHandle.standardError.write(Data("a device's revision went backwards \(outcome.regressions) times\n".utf8))
            }
            return (report, outcome.kept)
        }
    }
}
