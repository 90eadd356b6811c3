@testable import HermesHarness
import Testing

/// What `hermes torture burst` reads from its recovery child.
struct BurstChildTests {
    @Test func theRecoveryChildReportsTornRecordsOnALineOfItsOwn() {
        #expect(BurstChild.torn(in: ["ignored", "torn 3"]) == 3)
        #expect(BurstChild.torn(in: ["torn", "torn x"]) == 0)
    }
}
