import ArgumentParser
import Foundation
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

    /// The PostgreSQL server of the tests, when one is given; under `CI=true` its absence fails
    /// the PostgreSQL run instead of skipping it.
    static let postgresURL = ProcessInfo.processInfo.environment["HERMES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let runsPostgres = postgresURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: runsPostgres, "set HERMES_TEST_POSTGRES_URL (scripts/postgres.sh start prints one)"))
    func shortRunOnPostgreSQLEndsWithEveryDeviceHoldingTheServersRows() async throws {
        let url = try #require(Self.postgresURL, "set HERMES_TEST_POSTGRES_URL: CI must run the PostgreSQL tests")
        var torture = SyncTorture(devices: 6, seconds: 1, seed: 3, processes: 0, executable: nil)
        torture.postgresServer = url
        let outcome = try await torture.run()
        #expect(outcome.devices == 6 && outcome.changes >= 18)
        #expect(outcome.diverged == 0 && outcome.lost == 0 && outcome.duplicates == 0 && outcome.regressions == 0)
    }

    @Test func storageOtherThanPostgreSQLIsRefused() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["sync", "torture", "--storage", "server.sqlite"])
        } throws: { error in
            HermesCommand.message(for: error) == "--storage must be a postgres:// URL (the default is a SQLite file)"
        }
    }
}
