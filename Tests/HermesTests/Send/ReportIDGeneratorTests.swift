@testable import Hermes
import Testing

struct ReportIDGeneratorTests {
    /// The first 8 hex digits of an id made at 1_763_000_000_000 ms: the top 32 of its 48 time bits.
    static let timePrefix: String = {
        let hex = String(1_763_000_000_000 >> 16, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    @Test func idsAreVersion7UUIDsThatSortByTimeAndNeverRepeat() {
        let first = ReportIDGenerator()
        let second = ReportIDGenerator()
        var seen = Set<String>()
        for _ in 0..<20_000 {
            for id in [first.next(milliseconds: 1_763_000_000_000), second.next(milliseconds: 1_763_000_000_000)] {
                #expect(id.count == 36)
                let bytes = Array(id.utf8)
                #expect(bytes[14] == UInt8(ascii: "7"), "version nibble of \(id)")
                #expect(id.hasPrefix(Self.timePrefix), "time prefix of \(id)")
                #expect("89AB".utf8.contains(bytes[19]), "variant nibble of \(id)")
                #expect([8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") })
                seen.insert(id)
            }
        }
        #expect(seen.count == 40_000)
        // Later milliseconds sort after earlier ones.
        let ids = (0..<100).map { first.next(milliseconds: 1_763_000_000_000 + Int64($0)) }
        #expect(ids == ids.sorted())
    }

    @Test func concurrentCallersAcrossManyKeystreamChunksNeverShareAnID() async {
        let generator = ReportIDGenerator()
        let perCaller = ReportIDGenerator.blocksPerChunk * 20
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<perCaller).map { _ in generator.next(milliseconds: 1_763_000_000_000) } }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(ids.count == 4 * perCaller)
        #expect(Set(ids).count == ids.count)
    }

    @Test func twoGeneratorsStartFromDifferentIDs() {
        // Both start at counter 1: only their keys differ.
        #expect(ReportIDGenerator().next(milliseconds: 1) != ReportIDGenerator().next(milliseconds: 1))
    }
}
