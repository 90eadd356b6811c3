import Foundation
@testable import HermesHarness
import Testing

/// Short sync tortures in process, on SQLite and on PostgreSQL.
struct SyncTortureTests {
    @Test func shortRunOfDevicesInProcessEndsWithEveryDeviceHoldingTheServersRows() async throws {
        let outcome = try await SyncTorture(devices: 6, seconds: 1, seed: 3, processes: 0, executable: nil).run()
        #expect(outcome.devices == 6 && outcome.changes >= 18)
        #expect(outcome.diverged == 0 && outcome.lost == 0 && outcome.duplicates == 0 && outcome.regressions == 0)
        #expect(outcome.violations == 0 && outcome.impersonations == 0)
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
        #expect(outcome.violations == 0 && outcome.impersonations == 0)
    }
}
