@testable import Hermes
import Testing

struct BatchSizeTests {
    @Test func eachRefusalHalvesAndTenDeliveriesInARowDoubleBackToMaxItem() {
        var size = BatchSize()
        #expect(size.rows(maxItem: 100) == 100)
        let shrank = [size.refused(rows: 100), size.refused(rows: 50)]
        #expect(shrank == [true, true])
        #expect(size.rows(maxItem: 100) == 25)

        for _ in 0..<9 { size.wasDelivered(maxItem: 100) }
        #expect(size.rows(maxItem: 100) == 25)
        size.wasDelivered(maxItem: 100)
        #expect(size.rows(maxItem: 100) == 50)
        for _ in 0..<10 { size.wasDelivered(maxItem: 100) }
        #expect(size == BatchSize())
    }

    @Test func aRefusalRestartsTheStreakAndOneRowCannotShrink() {
        var size = BatchSize()
        _ = size.refused(rows: 40)
        for _ in 0..<9 { size.wasDelivered(maxItem: 100) }
        _ = size.refused(rows: 20)
        for _ in 0..<9 { size.wasDelivered(maxItem: 100) }
        #expect(size.rows(maxItem: 100) == 10)

        var single = BatchSize()
        let shrank = single.refused(rows: 1)
        #expect(!shrank)
        #expect(single == BatchSize())
    }

    @Test func aLowerMaxItemCapsTheReducedSize() {
        var size = BatchSize()
        _ = size.refused(rows: 100)
        #expect(size.rows(maxItem: 20) == 20)
    }
}
