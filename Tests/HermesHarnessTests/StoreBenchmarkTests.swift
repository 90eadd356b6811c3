@testable import HermesHarness
import Testing

/// What `hermes bench store` reads from its burst process.
struct StoreBenchmarkTests {
    @Test func theBurstProcessMemoryLineIsReadWithAnUnknownStart() {
        let known = StoreBenchmark.memory(in: ["noise", "rss 20971520 41943040"])
        #expect(known?.start == 20_971_520)
        #expect(known?.peak == 41_943_040)
        #expect(StoreBenchmark.memory(in: ["rss -1 41943040"])?.start == nil)
        #expect(StoreBenchmark.memory(in: ["rss 1"]) == nil)
        #expect(known?.anonymousAdded == nil)
    }

    @Test func theAnonymousMemoryTheBurstAddedIsReadWhenPrinted() {
        let memory = StoreBenchmark.memory(in: ["anon 1048576 3145728", "rss 20971520 41943040"])
        #expect(memory?.anonymousAdded == 2_097_152)
        #expect(memory?.peak == 41_943_040)
    }
}
