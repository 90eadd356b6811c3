import ArgumentParser
import HermesWire

/// `hermes sync bench [--json]`.
struct SyncBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure sync: a new device catching up on 100,000 records, 50 devices pushing change sets."
    )

    @Option(help: "Records the new device receives.")
    var records = 100_000

    @Option(help: "Devices pushing at once.")
    var devices = 50

    @Option(help: "Change sets each device pushes.")
    var pushes = 20

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        guard records >= 1_000, devices >= 1, pushes >= 1 else { throw ValidationError("--records must be at least 1000, --devices and --pushes at least 1") }
    }

    func run() async throws {
        let report = try await SyncBench(records: records, devices: devices, pushes: pushes).run()
        print(json ? try report.json.jsonString() : report.table(title: "sync bench"))
    }
}
