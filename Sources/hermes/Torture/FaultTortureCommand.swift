import ArgumentParser
import Foundation
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
            var report = BenchReport()
            report.add("sent", Double(outcome.sent), "records sent")
            report.add("stored", Double(outcome.audit.stored), "records stored at the collector")
            report.add("poisoned", Double(outcome.poisoned), "records sent poisoned (the collector refuses them)")
            report.add("rejected", Double(outcome.rejected), "records the client saw rejected and deleted (must equal poisoned)")
            report.add("lost", Double(outcome.audit.lostAccepted), "good records missing (must be 0)")
            report.add("duplicates", Double(outcome.audit.duplicates), "extra copies stored (must be 0)")
            report.add("faults_injected", Double(outcome.faults.values.reduce(0, +)), "faults injected")
            for fault in FaultPlan.Fault.allCases {
                report.add("faults_\(fault.rawValue)", Double(outcome.faults[fault] ?? 0), "  \(fault.rawValue)")
            }
            report.add("left_in_store", Double(outcome.leftInStore), "rows left in the client's store (must be 0)")
            report.add("max_in_flight_per_namespace", Double(outcome.maxInFlight), "most requests in flight in one namespace (must be 1)")
            return (report, outcome.passed)
        }
    }
}
