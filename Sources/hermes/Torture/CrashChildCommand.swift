import ArgumentParser
import HermesHarness

/// `hermes torture crash-child`: the app that `hermes torture crash` kills (``CrashChild``).
struct CrashChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-child",
        abstract: "The app process that 'hermes torture crash' kills (internal).",
        shouldDisplay: false
    )

    @OptionGroup var app: TortureAppOptions

    @Option(help: "The directory holding the accepted and confirmed logs.")
    var logs: String

    @Option(help: "The first record number this run sends.")
    var first: Int64 = 0

    @Option(help: "Records this run sends at most.")
    var count: Int64 = 100_000

    @Option(help: "Records per flush.")
    var batch: Int64 = 40

    @Flag(help: "Send nothing: upload what the store holds, shut down, and exit 0 once it is empty.")
    var drain = false

    func validate() throws {
        guard batch > 0, count >= 0 else { throw ValidationError("--batch must be positive and --count not negative") }
    }

    func run() async throws {
        let child = CrashChild(app: app.app, logs: logs)
        if drain {
            guard try await child.drain() else { throw ExitCode(1) }
            return
        }
        try await child.send(first: first, count: count, batch: batch)
    }
}
