import Foundation
@testable import Hermes
import Testing

struct PendingQueueTests {
    static func record(_ index: Int, metaBytes: Int = 400, payload: Data? = nil, namespace: String = "hermes") -> PendingRecord {
        PendingRecord(
            reportID: "R-\(index)", namespace: namespace, monitorType: "appLag", isBusiness: namespace != "hermes",
            createdTime: 1_763_000_000_000 + Int64(index), appVersion: "1.2.0",
            meta: Array(#"{"i":\#(index),"pad":"\#(String(repeating: "x", count: max(0, metaBytes - 20)))"}"#.utf8), payload: payload
        )
    }

    @Test func anArenaGivesBackEveryFieldOfItsRecordsInOrder() {
        let arena = RecordArena(capacity: 64 << 10)
        let records = [
            Self.record(0),
            Self.record(1, payload: Data("0 main\n1 start".utf8), namespace: "JZ"),
            PendingRecord(reportID: "R-é", namespace: "KX", monitorType: "KX-vue-😀", isBusiness: true, createdTime: -5,
                          appVersion: "", meta: Array(#"{"名":"值"}"#.utf8), payload: Data()),
            Self.record(3),
        ]
        for record in records { #expect(arena.append(record)) }

        let read = arena.records()
        #expect(read.map(\.reportID) == records.map(\.reportID))
        #expect(read.map(\.namespace) == records.map(\.namespace))
        #expect(read.map(\.monitorType) == records.map(\.monitorType))
        #expect(read.map(\.isBusiness) == records.map(\.isBusiness))
        #expect(read.map(\.createdTime) == records.map(\.createdTime))
        #expect(read.map(\.appVersion) == records.map(\.appVersion))
        #expect(read.map(\.meta) == records.map(\.meta))
        #expect(read.map(\.payload) == records.map(\.payload))
    }

    @Test func aFullArenaRefusesAndAResetOneStartsOver() {
        let arena = RecordArena(capacity: 1_000)
        #expect(arena.append(Self.record(0)))
        #expect(arena.append(Self.record(1)))
        #expect(!arena.append(Self.record(2)))
        #expect(arena.count == 2)
        arena.reset()
        #expect(arena.records().isEmpty)
        #expect(arena.append(Self.record(3)))
        #expect(arena.records().map(\.reportID) == ["R-3"])
    }

    @Test func theWriterTakesWholeArenasOldestFirstAndPutsBackAheadOfNewRecords() {
        // Given about three arenas of records (some 600 per arena)
        var queue = PendingQueue()
        for index in 0..<1_500 { queue.append(Self.record(index)) }
        #expect(queue.count == 1_500)

        // When the writer takes up to 1,000 records, then fails and puts them back after new ones came
        let front = queue.takeFront(upTo: 1_000)
        let taken = front.reduce(0) { $0 + $1.count }
        #expect(taken > 0 && taken <= 1_000)
        #expect(front.flatMap { $0.records() }.map(\.reportID) == (0..<taken).map { "R-\($0)" })
        queue.append(Self.record(1_500))
        queue.putBack(front)

        // Then everything comes out once, in order
        let all = queue.takeFront(upTo: .max)
        #expect(all.flatMap { $0.records() }.map(\.reportID) == (0...1_500).map { "R-\($0)" })
        #expect(queue.isEmpty)
    }

    @Test func sparesGrowWhenSendHadToMakeArenasAndShrinkWhenTheQueueIsIdle() {
        // Given sends that had to make three arenas (some 600 records each)
        var queue = PendingQueue()
        for index in 0..<1_500 { queue.append(Self.record(index)) }

        // When they are committed, the target doubles to 4: the three come back, one more is wanted
        #expect(queue.recycle(queue.takeFront(upTo: .max)) == 1)
        queue.addSpares([RecordArena(capacity: PendingQueue.arenaCapacity)])

        // Then the next 1,500 records fit in spares, and once the queue runs empty the target
        // halves back to 2, so nothing more is wanted
        for index in 0..<1_500 { queue.append(Self.record(index)) }
        #expect(queue.recycle(queue.takeFront(upTo: .max)) == 0)
    }

    @Test func aRecordLargerThanAnArenaGetsOneOfItsOwn() {
        var queue = PendingQueue()
        queue.append(Self.record(0, metaBytes: PendingQueue.arenaCapacity + 10))
        queue.append(Self.record(1))
        let records = queue.takeFront(upTo: .max).flatMap { $0.records() }
        #expect(records.map(\.reportID) == ["R-0", "R-1"])
        #expect(records[0].meta.count > PendingQueue.arenaCapacity)
    }
}
