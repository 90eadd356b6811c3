import ArgumentParser
import HermesHarness

/// `hermes torture burst-child`: the app that `hermes torture burst` kills (``BurstChild``).
struct BurstChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst-child",
        abstract: "The app process that 'hermes torture burst' kills (internal).",
        shouldDisplay: false
    )

    @OptionGroup var app: TortureAppOptions

    @Option(help: "The send map file to create (one byte per record).")
    var marks: String?

    @Option(help: "The first record number.")
    var first: Int64 = 0

    @Option(help: "Records to send.")
    var records = 100_000

    @Option(help: "Print 'reached' once this many sends have returned.")
    var announceAfter: Int?

    @Flag(help: "Send nothing: recover, upload what the store holds, print 'torn <count>', and exit 0 once the store is empty.")
    var recover = false

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard recover || marks != nil else { throw ValidationError("--marks is required unless --recover") }
    }

    func run() async throws {
        let child = BurstChild(app: app.app)
        if recover {
            guard try await child.recover() else { throw ExitCode(1) }
            return
        }
        try await child.burst(marks: marks!, first: first, records: records, announceAfter: announceAfter)
    }
}
