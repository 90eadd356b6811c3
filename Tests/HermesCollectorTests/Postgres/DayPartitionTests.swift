import HermesCollectorPostgres
import Testing

struct DayPartitionTests {
    @Test func dayIsTheUTCDayOfTheCreateTime() {
        // 2026-11-23T00:00:00Z = 1_795_392_000_000 ms
        let partition = DayPartition(containing: 1_795_392_000_000 + 86_399_999)
        #expect(partition.tableName == "events_20261123")
        #expect(partition.lowerBound == 1_795_392_000_000)
        #expect(partition.upperBound == 1_795_392_000_000 + 86_400_000)
        #expect(DayPartition(containing: 1_795_392_000_000 - 1).tableName == "events_20261122")
    }

    @Test func timesBefore1970FallInTheDayBefore() {
        #expect(DayPartition(containing: -1).tableName == "events_19691231")
        #expect(DayPartition(containing: -1).upperBound == 0)
        #expect(DayPartition(containing: 0).tableName == "events_19700101")
    }

    @Test func tableNameReadsBackToTheSameDayAndOtherNamesDoNot() {
        for day: Int64 in [0, 59, 60, 10_000, 20_415, 47_482] {
            #expect(DayPartition(tableName: DayPartition(day: day).tableName) == DayPartition(day: day))
        }
        for name in ["events_default", "events_20260230", "events_2026112", "events_20261323", "config"] {
            #expect(DayPartition(tableName: name) == nil)
        }
    }

    @Test func aroundListsTheDaysBehindAndAheadOfNow() {
        let days = DayPartition.around(1_795_400_000_000, behind: 1, ahead: 2).map(\.tableName)
        #expect(days == ["events_20261122", "events_20261123", "events_20261124", "events_20261125"])
    }
}
