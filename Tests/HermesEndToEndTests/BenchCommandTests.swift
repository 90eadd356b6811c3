import ArgumentParser
@testable import hermes
import Testing

/// `hermes bench` on the command line, and what its burst process prints.
struct BenchCommandTests {
    @Test func aSuiteStillParsesBesideTheHiddenBurstProcess() throws {
        let bench = try #require(try HermesCommand.parseAsRoot(["bench", "store", "--json"]) as? BenchCommand)
        #expect(bench.suite == .store)
        #expect(bench.json)
        let child = try #require(try HermesCommand.parseAsRoot(["bench-burst-child", "--storage", "/tmp/b", "--records", "10"]) as? BenchBurstChildCommand)
        #expect(child.records == 10)
    }

    @Test func theBurstProcessMemoryLineIsReadWithAnUnknownStart() {
        let known = BenchBurstChildCommand.memory(in: ["noise", "rss 20971520 41943040"])
        #expect(known?.start == 20_971_520)
        #expect(known?.peak == 41_943_040)
        #expect(BenchBurstChildCommand.memory(in: ["rss -1 41943040"])?.start == nil)
        #expect(BenchBurstChildCommand.memory(in: ["rss 1"]) == nil)
    }
}
