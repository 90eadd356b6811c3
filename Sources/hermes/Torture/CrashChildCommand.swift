import ArgumentParser
import Foundation
import Hermes

/// `hermes torture crash-child`: the app that `hermes torture crash` kills. It sends numbered
/// records in batches, writes each batch to the accepted log once `send` took it and to the
/// confirmed log once `flush()` returned, uploads now and then, and announces each phase on
/// standard output (`send`, `commit`, `upload`) so that the parent can kill it there.
struct CrashChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-child",
        abstract: "The app process that 'hermes torture crash' kills (internal).",
        shouldDisplay: false
    )

    enum Phase: String, CaseIterable {
        case send, commit, upload
    }

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
        let client = try app.client(document: TortureScenario.document)
        client.start()
        if drain {
            guard try await TortureScenario.drain(client, storage: app.storageURL) else { throw ExitCode(1) }
            return
        }
        let accepted = try RangeLog(path: Self.acceptedPath(logs))
        let confirmed = try RangeLog(path: Self.confirmedPath(logs))
        var next = first
        var round = 0
        while next < first + count {
            let range = next...(min(next + batch, first + count) - 1)
            announce(.send)
            for n in range where !TortureScenario.send(n, with: client) {
                throw ValidationError("record \(n) was rejected")
            }
            try accepted.append(range)
            announce(.commit)
            try await client.flush()
            try confirmed.append(range)
            round += 1
            if round.isMultiple(of: 3) {
                announce(.upload)
                await client.upload()
            }
            next = range.upperBound + 1
        }
        await client.shutdown()
    }

    private func announce(_ phase: Phase) {
        FileHandle.standardOutput.write(Data("\(phase.rawValue)\n".utf8))
    }

    static func acceptedPath(_ logs: String) -> String { logs + "/accepted.log" }
    static func confirmedPath(_ logs: String) -> String { logs + "/confirmed.log" }
}
