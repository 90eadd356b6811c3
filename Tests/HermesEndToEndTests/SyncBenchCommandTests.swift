import ArgumentParser
@testable import hermes
import HermesWire
import Testing

/// `hermes sync bench` on the command line.
struct SyncBenchCommandTests {
    @Test func defaultsAreFiftyDevicesPushingOnceASecondForThreeRuns() throws {
        let command = try #require(try HermesCommand.parseAsRoot(["sync", "bench", "--json"]) as? SyncBenchCommand)
        #expect(command.devices == 50 && command.intervalMilliseconds == 1_000 && command.runs == 3 && command.json)
    }

    @Test func zeroIntervalIsRefusedWithAReason() {
        do {
            _ = try HermesCommand.parseAsRoot(["sync", "bench", "--interval-ms", "0"])
            Issue.record("--interval-ms 0 was accepted")
        } catch {
            #expect(HermesCommand.message(for: error) == "--records must be at least 1000; --devices, --pushes, --interval-ms and --runs at least 1")
        }
    }
}
