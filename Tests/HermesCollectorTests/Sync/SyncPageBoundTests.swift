@testable import HermesCollector
import Testing

/// Where a catch-up answer ends: by records, by bytes, never inside a revision.
struct SyncPageBoundTests {
    @Test func aPageEndsAtTheRecordLimitOrAtTheCurrentRevision() {
        let small = (1...4).map { (revision: Int64($0), bytes: 10) }
        #expect(SyncPageBound.end(of: small, limit: 4, current: 9) == 4)
        #expect(SyncPageBound.end(of: Array(small.prefix(3)), limit: 4, current: 9) == 9)
    }

    @Test func aPageEndsBeforeTheRecordThatPassesTheByteBoundButNeverBeforeItsFirst() {
        let big = SyncPageBound.maximumBytes / 2
        let records: [(revision: Int64, bytes: Int)] = [(1, big), (2, big), (3, 10)]
        #expect(SyncPageBound.end(of: records, limit: 100, current: 9) == 1)
        #expect(SyncPageBound.end(of: [(5, 3 * SyncPageBound.maximumBytes), (6, 1)], limit: 100, current: 9) == 5)
    }

    @Test func aRevisionIsNeverSplit() {
        // The bound passes inside revision 2: the page ends with the whole of revision 2.
        let big = SyncPageBound.maximumBytes / 3
        let records: [(revision: Int64, bytes: Int)] = [(1, big), (2, big), (2, big), (2, big)]
        #expect(SyncPageBound.end(of: records, limit: 100, current: 9) == 2)
    }
}
