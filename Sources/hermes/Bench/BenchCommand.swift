import ArgumentParser
import HermesWire

/// `hermes bench [suite] [--json]`: runs speed benchmarks and prints their figures; with no
/// suite, every suite, in one table (or one JSON object with a key per suite).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Hermes' speed. Build with -c release for meaningful figures."
    )

    enum Suite: String, ExpressibleByArgument, CaseIterable {
        case wire
        case store
        case upload
        case e2e
        case log
        case journal
    }

    @Argument(help: "The suite to run: \(Suite.allCases.map(\.rawValue).joined(separator: ", ")). All when omitted.")
    var suite: Suite?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    /// One suite's figures, or an object with a key per suite.
    static func json(_ reports: [(Suite, BenchReport)]) -> JSONValue {
        reports.count == 1
            ? reports[0].1.json
            : .object(Dictionary(uniqueKeysWithValues: reports.map { ($0.0.rawValue, $0.1.json) }))
    }

    func run() async throws {
        var reports: [(Suite, BenchReport)] = []
        for suite in suite.map({ [$0] }) ?? Suite.allCases {
            let report: BenchReport
            switch suite {
            case .wire: report = try WireBenchmark().run()
            case .store: report = try await StoreBenchmark().run()
            case .upload: report = try await UploadBenchmark().run()
            case .e2e: report = try await EndToEndBenchmark().run()
            case .log: report = try await LogBenchmark().run()
            case .journal: report = try await JournalBenchmark().run()
            }
            reports.append((suite, report))
        }
        if json {
            print(try Self.json(reports).jsonString())
        } else if reports.count == 1 {
            print(reports[0].1.table(title: reports[0].0.rawValue))
        } else {
            print(BenchReport.table(reports.map { ($0.0.rawValue, $0.1) }))
        }
    }
}
