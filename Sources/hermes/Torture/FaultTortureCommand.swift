import ArgumentParser
import Foundation
import HermesHarness
import HermesWire

/// `hermes torture faults [--records N] [--rate R] [--seed S] [--json]`.
struct FaultTortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults",
        abstract: "Upload through a proxy that breaks requests and check every record is stored once.",
        discussion: """
            The proxy answers a share of uploads with 500 (before or after the collector stored them), \
            drops the connection mid-body, holds the request past the client's timeout, or answers 413 \
            or 429 with Retry-After; it refuses a stretch of requests with 401 and another with 404. \
            One record in fifty is poisoned: the collector's record rule refuses it. Exits 1 unless \
            every other record is stored exactly once, exactly the poisoned ones are rejected \
            (stored + rejected = sent, rejected = poisoned), the store is empty, and no namespace \
            ever had two requests in flight.
            """
    )

    @Option(help: "Records to send, spread over three namespaces.")
    var records: Int64 = 2_000

    @Option(help: "The share of upload requests that get a fault.")
    var rate = 0.3

    @OptionGroup var options: TortureRunOptions

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
        guard (0...1).contains(rate) else { throw ValidationError("--rate must be between 0 and 1") }
    }

    func run() async throws {
        try await options.report("torture faults") { seed in
            let outcome = try await FaultTorture(records: records, rate: rate, seed: seed).run()
            return (outcome.report(), outcome.passed)
        }
    }
}
