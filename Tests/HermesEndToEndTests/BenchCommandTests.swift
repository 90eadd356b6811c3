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

    @Test func theBurstProcessMemoryLineIsReadWithAnUnknownStart() {
        let known = StoreBenchmark.memory(in: ["noise", "rss 20971520 41943040"])
        #expect(known?.start == 20_971_520)
        #expect(known?.peak == 41_943_040)
        #expect(StoreBenchmark.memory(in: ["rss -1 41943040"])?.start == nil)
        #expect(StoreBenchmark.memory(in: ["rss 1"]) == nil)
    }
}
