@testable import Hermes
import Testing

struct ReportIDGeneratorTests {
    @Test func idsAreVersion4UUIDsAndNeverRepeat() {
        let first = ReportIDGenerator()
        let second = ReportIDGenerator()
        var seen = Set<String>()
        for _ in 0..<20_000 {
            for id in [first.next(), second.next()] {
                #expect(id.count == 36)
                let bytes = Array(id.utf8)
                #expect(bytes[14] == UInt8(ascii: "4"), "version nibble of \(id)")
                #expect("89AB".utf8.contains(bytes[19]), "variant nibble of \(id)")
                #expect([8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") })
                seen.insert(id)
            }
        }
        #expect(seen.count == 40_000)
    }

    @Test func twoGeneratorsStartFromDifferentIDs() {
        // Both start at counter 1: only their keys differ.
        #expect(ReportIDGenerator().next() != ReportIDGenerator().next())
    }
}
