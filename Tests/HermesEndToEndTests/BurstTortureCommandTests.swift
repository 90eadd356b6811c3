import ArgumentParser
@testable import hermes
import Testing

/// `hermes torture burst` and its child on the command line.
struct BurstTortureCommandTests {
    @Test func defaultsAreAHundredThousandRecordsAndFourRuns() throws {
        let command = try #require(try HermesCommand.parseAsRoot(["torture", "burst"]) as? BurstTortureCommand)
        #expect(command.records == 100_000)
        #expect(command.runs == 4)
        #expect(command.options.seed == nil)
        #expect(!command.options.json)
    }

    @Test func theCILineParses() throws {
        let command = try #require(
            try HermesCommand.parseAsRoot(["torture", "burst", "--records", "20000", "--runs", "3", "--seed", "7", "--json"]) as? BurstTortureCommand)
        #expect([command.records, command.runs] == [20_000, 3])
        #expect(command.options.seed == 7)
        #expect(command.options.json)
    }

    @Test func anEmptyBurstIsRefusedWithAReason() {
        #expect(throws: (any Error).self) { try HermesCommand.parseAsRoot(["torture", "burst", "--records", "0"]) }
        do {
            _ = try HermesCommand.parseAsRoot(["torture", "burst", "--runs", "0"])
            Issue.record("--runs 0 was accepted")
        } catch {
            #expect(HermesCommand.message(for: error) == "--runs must be at least 1")
        }
    }

    @Test func aBurstChildNeedsASendMapUnlessItRecovers() throws {
        let app = ["--collector", "http://127.0.0.1:1", "--key", String(repeating: "00", count: 16), "--storage", "/tmp/app"]
        do {
            _ = try HermesCommand.parseAsRoot(["torture", "burst-child"] + app)
            Issue.record("a burst child without --marks was accepted")
        } catch {
            #expect(HermesCommand.message(for: error) == "--marks is required unless --recover")
        }
        let recovery = try #require(try HermesCommand.parseAsRoot(["torture", "burst-child", "--recover"] + app) as? BurstChildCommand)
        #expect(recovery.recover)
    }
}
