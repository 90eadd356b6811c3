import ArgumentParser
import Foundation
import Hermes

/// `hermes torture burst-child`: the app that `hermes torture burst` kills. It sends its
/// records as fast as it can on one thread, marks in a ``SendMap`` what each `send` returned,
/// announces `reached` after `--announce-after` sends and `sent` after the last one, then
/// waits to be killed. With `--recover` it sends nothing: it starts a client on the same
/// store (which recovers what the killed app left), uploads everything, and prints the
/// records the client counted as torn.
struct BurstChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst-child",
        abstract: "The app process that 'hermes torture burst' kills (internal).",
        shouldDisplay: false
    )

    /// The lines the child prints for the parent to kill it on.
    enum Announcement: String {
        case reached, sent
    }

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
        let client = try app.client(document: BurstTorture.document)
        client.start()
        if recover {
            // Whatever recovery handed the writer is in the store before the store is read.
            try await client.flush()
            let emptied = try await TortureScenario.drain(client, storage: app.storageURL)
            let torn = client.diagnostics().losses.values.reduce(0) { $0 + ($1[.torn] ?? 0) }
            print("\(LossReason.torn.name) \(torn)")
            guard emptied else { throw ExitCode(1) }
            return
        }
        try await onThread { [marks, first, records, announceAfter] in
            let map = try SendMap(creatingAt: marks!, count: records)
            for index in 0..<records {
                let outcome = client.send(type: "appLag", meta: SampleRecords.burstEvent(first + Int64(index)))
                map.mark(index, outcome.isAccepted ? .accepted : .rejected)
                if index + 1 == announceAfter { Self.announce(.reached) }
            }
        }
        Self.announce(.sent)
        try await Task.sleep(for: .seconds(600))
        throw RunFailure("the burst child was not killed within 600 s of its last send")
    }

    /// The count in a recovery child's `torn <count>` line, 0 when there is none.
    static func torn(in lines: [String]) -> Int {
        lines.lazy.compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == LossReason.torn.name ? Int(words[1]) : nil
        }.first ?? 0
    }

    private static func announce(_ announcement: Announcement) {
        FileHandle.standardOutput.write(Data("\(announcement.rawValue)\n".utf8))
    }
}
