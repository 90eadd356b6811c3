import Foundation
import HermesWire
@testable import hermes
import Testing

/// The verdict of the torture commands, and the logs the killed app leaves behind.
struct DeliveryAuditTests {
    @Test func confirmedRecordsMissingAndExtraCopiesBreakThePromise() {
        // Given 1…6 accepted, 1…4 confirmed, and a collector holding 1, 2 (twice), 3, 5
        let audit = DeliveryAudit(accepted: Set(1...6), confirmed: Set(1...4), stored: [1: 1, 2: 2, 3: 1, 5: 1])

        // Then 4 is a lost confirmed record, 2 a duplicate, and 6 the allowed unconfirmed loss
        let figures: [Int] = [audit.confirmed, audit.stored, audit.lostConfirmed, audit.duplicates, audit.lostUnconfirmed]
        #expect(figures == [4, 4, 1, 1, 1])
        #expect(!audit.kept)
    }

    @Test func everyConfirmedRecordStoredOnceKeepsThePromise() {
        let audit = DeliveryAudit(accepted: Set(1...6), confirmed: Set(1...4), stored: [1: 1, 2: 1, 3: 1, 4: 1])
        #expect(audit.kept)
        #expect(audit.lostUnconfirmed == 2)
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
