import ArgumentParser
import HermesHarness
import HermesWire

/// The options every torture command takes: the seed that replays a run, and JSON output;
/// and how each runs and reports.
struct TortureRunOptions: ParsableArguments {
    @Option(help: "Seed of the run's random choices (random when omitted; printed).")
    var seed: UInt64?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    /// Runs `body` with the seed (the one given, or a random one), adds the wall time to the
    /// figures it returns, and prints them as a table titled `<title> (seed <seed>)` or as JSON.
    /// - Throws: `ExitCode(1)` when `body` says the promise was broken.
    func report(_ title: String, _ body: (UInt64) async throws -> (figures: BenchReport, kept: Bool)) async throws {
        let seed = seed ?? UInt64.random(in: 0...UInt64.max)
        let clock = ContinuousClock()
        let started = clock.now
        var (report, kept) = try await body(seed)
        report.add("seconds", started.duration(to: clock.now).seconds, "wall time (s)")
        print(json ? try report.json.jsonString() : report.table(title: "\(title) (seed \(seed))"))
        if !kept { throw ExitCode(1) }
    }
}
