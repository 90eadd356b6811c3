import Foundation
@testable import HermesHarness
import HermesWire
import Testing

/// The verdict of the torture commands, and the logs the killed app leaves behind.
struct DeliveryAuditTests {
    @Test func acceptedRecordsMissingAndExtraCopiesBreakThePromise() {
        // Given 1…6 accepted, 1…4 confirmed, and a collector holding 1, 2 (twice), 3, 5
        let audit = DeliveryAudit(accepted: Set(1...6), confirmed: Set(1...4), stored: [1: 1, 2: 2, 3: 1, 5: 1])

        // Then 4 and 6 are lost accepted records (4 had been confirmed), and 2 a duplicate
        let figures: [Int] = [audit.accepted, audit.confirmed, audit.stored, audit.lostAccepted, audit.lostConfirmed, audit.duplicates]
        #expect(figures == [6, 4, 4, 2, 1, 1])
        #expect(!audit.kept)
    }

    @Test func anAcceptedRecordLostBeforeItsFlushBreaksThePromise() {
        let audit = DeliveryAudit(accepted: Set(1...6), confirmed: Set(1...4), stored: [1: 1, 2: 1, 3: 1, 4: 1])
        #expect(audit.lostAccepted == 2)
        #expect(audit.lostConfirmed == 0)
        #expect(!audit.kept)
    }

    @Test func aRecordWhoseSendHadNotReturnedMayBeMissingOrStored() {
        // Given a burst from 100: sends 100 and 102 accepted, 101 rejected, 103 not returned when killed
        let marks: [SendMap.Mark] = [.accepted, .rejected, .accepted, .notReturned, .notReturned]
        let accepted = SendMap.numbers(.accepted, in: marks, first: 100)
        #expect(accepted == [100, 102])
        #expect(SendMap.numbers(.rejected, in: marks, first: 100) == [101])

        // When the collector holds 100, 102 and 103 (whose send had not returned), not 104
        let audit = DeliveryAudit(accepted: accepted, stored: [100: 1, 102: 1, 103: 1])

        // Then nothing accepted is lost
        let figures: [Int] = [audit.accepted, audit.stored, audit.lostAccepted, audit.duplicates]
        #expect(figures == [2, 3, 0, 0])
        #expect(audit.kept)
    }

    @Test func aRangeLogReadsWholeLinesAndIgnoresAHalfWrittenOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try RangeLog(path: path)
        try log.append(0...2)
        try log.append(10...10)
        // A process killed in the middle of a line leaves it without its newline.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("20-2".utf8))
        try handle.close()

        #expect(RangeLog.read(path) == [0, 1, 2, 10])
        #expect(RangeLog.read(path + ".missing").isEmpty)
    }

    @Test func killPlansCoverEveryPhaseAndRandomTimes() {
        var random = SplitMix64(seed: 1)
        let names = Set((0..<200).map { _ in KillPlan.draw(&random).name })
        #expect(names == ["send", "commit", "upload", "anytime"])
    }
}
