import ArgumentParser
import HermesCollector
import HermesHarness
import HermesWire

/// `hermes bench [suite] [--json]`: runs speed benchmarks and prints their figures; with no
/// suite, every suite but `collector`, `retention`, `console` and `export`, in one table (or one JSON
/// object with a key per suite).
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
        /// What one resource sample (`appMemory`, `appCPU`) costs.
        case monitor
        /// Collector processes on one store behind a front; not part of "all" (it starts processes and wants a database).
        case collector
        /// Dropping an old day on PostgreSQL while inserts run; not part of "all" (it wants a database).
        case retention
        /// The web console's pages over a filled store; not part of "all" (it fills a million records).
        case console
        /// Streaming a filled store out of `GET /v1/events/export`; not part of "all" (it fills a million records).
        case export

        /// The suites run when none is named.
        static let all: [Suite] = allCases.filter { ![.collector, .retention, .console, .export].contains($0) }
    }

    @Argument(
        help:
            "The suite to run: \(Suite.allCases.map(\.rawValue).joined(separator: ", ")). All but collector, retention, console and export when omitted."
    )
    var suite: Suite?

    @Option(help: "collector: how many collector processes serve behind the round-robin front.")
    var instances = 2

    @Option(
        help: ArgumentHelp(
            "collector, console, export: sqlite (a temporary file), or a postgres:// URL of a server where the benchmark may create and drop databases (retention: that URL, required).",
            valueName: "url|sqlite"))
    var storage = "sqlite"

    @Option(help: "collector, retention: how many clients post (insert) batches at once.")
    var uploaders = 4

    @Option(help: "collector: how many unique 100-record batches one run posts (every fifth twice).")
    var batches = 400

    @Option(
        help: "e2e, collector, retention: how many runs, 3 by default (the figures are their medians); console: requests per page, 20 by default.")
    var runs: Int?

    @Option(
        help: """
            e2e: how many records the app delivers, 100,000 by default (past that, in bursts of 100,000 each flushed); \
            console, export: how many records the store holds, 1,000,000 by default.
            """)
    var records: Int?

    @Option(help: "retention: how many records the old day dropped holds.")
    var rows = 1_000_000

    @Flag(help: "e2e: also deliver through a front that writes each answer's head and body in two writes with Nagle on.")
    var splitAnswers = false

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        guard runs ?? 1 >= 1 else { throw ValidationError("--runs must be at least 1.") }
        guard records ?? 1 >= 1 else { throw ValidationError("--records must be at least 1.") }
        if suite == .console || suite == .export { return }
        if suite == .retention {
            guard postgresURL != nil else { throw ValidationError("retention drops PostgreSQL day partitions: give --storage postgres://….") }
            guard rows >= 1, uploaders >= 1 else { throw ValidationError("--rows and --uploaders must be at least 1.") }
            return
        }
        guard suite == .collector else { return }
        guard instances >= 1, uploaders >= 1, batches >= 1 else {
            throw ValidationError("--instances, --uploaders and --batches must be at least 1.")
        }
        guard postgresURL != nil || instances == 1 else {
            throw ValidationError("SQLite serves one collector per file: use --instances 1, or --storage postgres://….")
        }
    }

    /// The server of `--storage`, or `nil` for SQLite.
    private var postgresURL: String? { StorageLocation(storage).postgresURL }

    func run() async throws {
        var reports: [(Suite, BenchReport)] = []
        for suite in suite.map({ [$0] }) ?? Suite.all {
            let report: BenchReport
            switch suite {
            case .wire: report = try WireBenchmark().run()
            case .store: report = try await StoreBenchmark().run()
            case .upload: report = try await UploadBenchmark().run()
            case .e2e:
                report = try await EndToEndBenchmark(records: records ?? 100_000, runs: runs ?? 3, splitAnswers: splitAnswers).run()
            case .log: report = try await LogBenchmark().run()
            case .journal: report = try await JournalBenchmark().run()
            case .monitor: report = ResourceBenchmark().run()
            case .collector:
                report = try await CollectorBenchmark(
                    instances: instances, postgresURL: postgresURL, uploaders: uploaders, batches: batches, runs: runs ?? 3
                ).run()
            case .retention:
                guard let postgresURL else { throw ValidationError("retention needs --storage postgres://….") }
                report = try await RetentionBenchmark(postgresURL: postgresURL, rows: rows, uploaders: uploaders, runs: runs ?? 3).run()
            case .console:
                report = try await ConsoleBenchmark(records: records ?? 1_000_000, postgresURL: postgresURL, runs: runs ?? 20).run()
            case .export:
                report = try await ExportBenchmark(records: records ?? 1_000_000, postgresURL: postgresURL).run()
            }
            reports.append((suite, report))
        }
        let named = reports.map { (suite: $0.0.rawValue, report: $0.1) }
        if json {
            print(try BenchReport.json(named).jsonString())
        } else if named.count == 1 {
            print(named[0].report.table(title: named[0].suite))
        } else {
            print(BenchReport.table(named))
        }
    }
}
