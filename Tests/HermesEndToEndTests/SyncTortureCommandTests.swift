import ArgumentParser
@testable import hermes
import Testing

/// `hermes sync torture` on the command line, and a short run in process.
struct SyncTortureCommandTests {
    @Test func theCILineParses() throws {
        let command = try #require(
            try HermesCommand.parseAsRoot(["sync", "torture", "--devices", "50", "--seconds", "10", "--seed", "17"]) as? SyncTortureCommand
        )
        #expect(command.devices == 50 && command.seconds == 10 && command.processes == 3)
        #expect(command.options.seed == 17)
    }

    @Test func tooFewDevicesAreRefusedWithAReason() {
        do {
            _ = try HermesCommand.parseAsRoot(["sync", "torture", "--devices", "1"])
            Issue.record("--devices 1 was accepted")
        } catch {
            #expect(HermesCommand.message(for: error) == "--devices must be at least 2")
        }
    }

    @Test func shortRunOfDevicesInProcessEndsWithEveryDeviceHoldingTheServersRows() async throws {
        let outcome = try await SyncTorture(devices: 6, seconds: 1, seed: 3, processes: 0, executable: nil).run()
        #expect(outcome.devices == 6 && outcome.changes >= 18)
        #expect(outcome.diverged == 0 && outcome.lost == 0 && outcome.duplicates == 0 && outcome.regressions == 0)
    }
}
