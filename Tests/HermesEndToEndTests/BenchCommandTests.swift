import ArgumentParser
@testable import hermes
import Testing

/// `hermes bench` on the command line, and what its burst process prints.
struct BenchCommandTests {
    @Test func aSuiteParsesWithJSON() throws {
        let bench = try #require(try HermesCommand.parseAsRoot(["bench", "journal", "--json"]) as? BenchCommand)
        #expect(bench.suite == .journal)
        #expect(bench.json)
    }

    @Test func retentionNeedsAPostgresServer() throws {
        #expect(throws: (any Error).self) { try HermesCommand.parseAsRoot(["bench", "retention"]) }
        let bench = try #require(
            try HermesCommand.parseAsRoot(["bench", "retention", "--storage", "postgres://h@127.0.0.1/db", "--rows", "1000"]) as? BenchCommand)
        #expect(bench.suite == .retention)
        #expect(bench.rows == 1_000)
    }
}
