import ArgumentParser
import HermesHarness
import HermesWire

/// `hermes sync bench [--json]`.
struct SyncBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure sync: a new device catching up on 100,000 records, and 50 devices pushing change sets.",
        discussion: """
            push_p50_ms and push_p99_ms: the latency of one 10-record push while every device pushes at \
            seeded random (exponential) intervals averaging --interval-ms (by default one change set per \
            device per second: 50 change sets/s from 50 devices, a busy team), timed from the moment each \
            push was due until its answer was applied. saturated_push_p50_ms, saturated_push_p99_ms and \
            change_sets_per_s: the same devices pushing back to back. Each figure is the median of --runs \
            runs on fresh stores.
            """
    )

    @Option(help: "Records the new device receives.")
    var records = 100_000

    @Option(help: "Devices pushing at once.")
    var devices = 50

    @Option(help: "Change sets each device pushes, in each push phase.")
    var pushes = 20

    @Option(name: .customLong("interval-ms"), help: "Mean time between two pushes of one device in the open loop, in milliseconds.")
    var intervalMilliseconds = 1_000

    @Option(help: "Runs; each figure is their median.")
    var runs = 3

    @Option(help: "Seed of the push intervals.")
    var seed: UInt64 = 17

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        guard records >= 1_000, devices >= 1, pushes >= 1, intervalMilliseconds >= 1, runs >= 1 else {
            throw ValidationError("--records must be at least 1000; --devices, --pushes, --interval-ms and --runs at least 1")
        }
    }

    func run() async throws {
        let bench = SyncBench(
            records: records, devices: devices, pushes: pushes, interval: .milliseconds(intervalMilliseconds), runs: runs, seed: seed
        )
        let report = try await bench.run()
        print(json ? try report.json.jsonString() : report.table(title: "sync bench"))
    }
}
