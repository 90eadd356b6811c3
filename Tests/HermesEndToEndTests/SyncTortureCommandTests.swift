import ArgumentParser
import Foundation
@testable import hermes
import Testing

/// `hermes sync torture` on the command line.
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

    @Test func storageOtherThanPostgreSQLIsRefused() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["sync", "torture", "--storage", "server.sqlite"])
        } throws: { error in
            HermesCommand.message(for: error) == "--storage must be a postgres:// URL (the default is a SQLite file)"
        }
    }
}
