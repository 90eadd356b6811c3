import Foundation
@testable import Hermes
import Logging
import HermesWire
import Testing

struct JournalTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-journal-\(UUID().uuidString)")

    private func journal(_ options: Journal.Options = Journal.Options(segmentBytes: 64 << 10)) -> Journal {
        Journal(storageDirectory: directory, options: options, fileProtection: .none, logger: Logger(label: "hermes.tests"))
    }

    private static func record(_ index: Int, namespace: String = "hermes", payload: Data? = nil) -> PendingRecord {
        PendingRecord(
            reportID: "id-\(index)", namespace: namespace, monitorType: "appLag", isBusiness: false,
            createdTime: 1_763_000_000_000 + Int64(index), appVersion: "1.2.0",
            meta: Array(#"{"i":\#(index),"text":"\#(String(repeating: "x", count: index % 300))"}"#.utf8), payload: payload
        )
    }

    /// Reads and commits everything the journal holds; the records and torn frames it read.
    private static func drain(_ journal: Journal, limit: Int = 2_000) -> (records: [PendingRecord], torn: Int) {
        var records: [PendingRecord] = []
        var torn = 0
        for _ in 0..<100_000 {
            switch journal.take(limit: limit) {
            case .idle: return (records, torn)
            case .wait: continue
            case .batch(let batch):
                records += batch.records
                torn += batch.torn
                journal.commit(batch)
            }
        }
        Issue.record("the journal never went idle")
        return (records, torn)
    }

    private var segmentFiles: [URL] {
        let folder = directory.appendingPathComponent(Journal.directoryName)
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == JournalSegment.fileExtension }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func recordsAppendedAreReadBackByTheNextRunWithEveryField() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given 1,000 records appended across several segments, one with a payload, and no close (a crash)
        let writer = journal()
        var sent = (0..<1_000).map { Self.record($0) }
        sent.append(Self.record(1_000, payload: Data([0, 1, 2, 255])))
        for record in sent { guard case .accepted = writer.append(record) else { Issue.record("refused"); return } }
        #expect(segmentFiles.count > 3)

        // When the next run opens the journal
        let (records, torn) = Self.drain(journal())

        // Then every record comes back once and whole (segments are read in number order; a
        // caller that had to make its own segment may have filled it before a lower-numbered one)
        #expect(torn == 0)
        let byID = Dictionary(records.map { ($0.reportID, $0) }) { first, _ in first }
        #expect(records.count == sent.count && byID.count == sent.count)
        #expect(sent.allSatisfy { byID[$0.reportID]?.meta == $0.meta })
        #expect(byID["id-1000"]?.payload == Data([0, 1, 2, 255]))
        let first = try #require(byID["id-0"])
        #expect(first.namespace == "hermes" && first.monitorType == "appLag")
        #expect(first.createdTime == 1_763_000_000_000 && first.appVersion == "1.2.0" && !first.isBusiness)
    }

    @Test func aFrameReservedButNeverCommittedIsTornAndTheFramesAfterItSurvive() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a segment where a caller reserved a frame and died before copying its record,
        // while a later caller finished its own
        let folder = directory.appendingPathComponent(Journal.directoryName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let segment = try JournalSegment.create(sequence: 1, in: folder, capacity: 64 << 10)
        let before = Self.record(1)
        let torn = Self.record(2)
        let after = Self.record(3)
        var offset = JournalSegment.firstFrame
        for record in [before, torn, after] {
            let length = JournalRecordCodec.size(of: record)
            segment.reserve(at: offset, bodyLength: length)
            if record.reportID != torn.reportID { segment.write(record, at: offset, bodyLength: length) }
            offset += JournalSegment.frameSize(body: length)
        }

        // When the next run reads it
        let (records, tornCount) = Self.drain(journal())

        // Then the torn frame is counted, never read as a record, and the others are intact
        #expect(records.map(\.reportID) == [before.reportID, after.reportID])
        #expect(tornCount == 1)
    }

    @Test func aDamagedByteMakesItsFrameTornNotAWrongRecord() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given three committed records, the second with one byte of its meta flipped on disk
        let first = journal()
        for index in 0..<3 { _ = first.append(Self.record(index)) }
        // (the file that holds them: a first append that found no spare ready yet makes its own
        // segment, numbered after the one the preparer was making, which stays empty)
        let file = try #require(segmentFiles.first { (try? Data(contentsOf: $0))?.range(of: Data("id-1".utf8)) != nil })
        var bytes = try Data(contentsOf: file)
        let second = JournalSegment.firstFrame + JournalSegment.frameSize(body: JournalRecordCodec.size(of: Self.record(0)))
        bytes[second + JournalSegment.frameHeaderSize + JournalRecordCodec.headerSize + 3] ^= 0x20
        try bytes.write(to: file)

        // When the next run reads it
        let (records, torn) = Self.drain(journal())

        // Then the damaged frame is torn and the CRC kept it from being read
        #expect(records.map(\.reportID) == ["id-0", "id-2"])
        #expect(torn == 1)
    }

    @Test func consumedSegmentsAreDeletedAndSparesAreKeptReady() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a journal that filled several segments
        let journal = journal()
        for index in 0..<1_000 { _ = journal.append(Self.record(index)) }
        let filled = segmentFiles.count

        // When the reader commits everything
        let (records, _) = Self.drain(journal)

        // Then only the live segment and the spares remain (and perhaps one being made)
        #expect(records.count == 1_000)
        #expect(filled > 3)
        #expect(segmentFiles.count <= 2 + journal.options.maxSpares)
        journal.close()
        #expect(journal.finish().isEmpty)
        #expect(segmentFiles.isEmpty)
    }

    @Test func pastItsLimitTheJournalUsesTheMemoryBufferThenRefuses() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a journal of at most two 64 KiB segments and a memory buffer of 5
        // (no spares: the caller makes each segment, so the count does not depend on timing)
        let journal = journal(Journal.Options(segmentBytes: 64 << 10, limitBytes: 128 << 10, memoryLimit: 5, minSpares: 0))

        // When records arrive and nothing reads them
        var accepted = 0
        var refusal: HermesError.Code?
        for index in 0..<2_000 {
            switch journal.append(Self.record(index % 10)) {
            case .accepted: accepted += 1
            case .rejected(let error): refusal = error.code
            }
            if refusal != nil { break }
        }

        // Then the segments fill (each made by a caller: a stall), five records wait in memory,
        // and the next is refused
        let perSegment = (64 << 10 - JournalSegment.firstFrame) / JournalSegment.frameSize(body: JournalRecordCodec.size(of: Self.record(9)))
        #expect(accepted >= 2 * perSegment + 5)
        #expect(journal.bufferedRecords == 5)
        #expect(journal.stalls == 2)
        #expect(refusal == .bufferFull)
        // And everything accepted is read back, journal first
        #expect(Self.drain(journal).records.count == accepted)
    }

    @Test func anOverflowIsLoggedOnceUntilTheMemoryBufferEmpties() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a journal of at most two 64 KiB segments and a memory buffer of 5, logging here
        let logs = CapturedLogs()
        let journal = Journal(
            storageDirectory: directory, options: Journal.Options(segmentBytes: 64 << 10, limitBytes: 128 << 10, memoryLimit: 5, minSpares: 0),
            fileProtection: .none, logger: logs.logger)
        let perSegment = (64 << 10 - JournalSegment.firstFrame) / JournalSegment.frameSize(body: JournalRecordCodec.size(of: Self.record(9)))
        // Records of one size, so that a segment holds exactly perSegment of them
        func appendUntilBuffered(_ count: Int) {
            for _ in 0..<(4 * perSegment) where journal.bufferedRecords < count { _ = journal.append(Self.record(9)) }
        }
        let warnings = { logs.all.filter { $0.message.contains("the journal is full") }.count }

        // When the journal overflows, its first segment is read and retired, and it fills again
        // while records still wait in memory
        appendUntilBuffered(1)
        guard case .batch(let batch) = journal.take(limit: perSegment) else {
            Issue.record("nothing to read")
            return
        }
        journal.commit(batch)
        _ = journal.retireConsumed()
        appendUntilBuffered(2)

        // Then that is one overflow, logged once
        #expect(journal.bufferedRecords == 2)
        #expect(warnings() == 1)

        // And once everything is read (the memory buffer empty), the next overflow is logged again
        _ = Self.drain(journal)
        _ = journal.retireConsumed()
        appendUntilBuffered(1)
        #expect(warnings() == 2)
    }

    @Test func aRecordLargerThanASegmentGetsAFileOfItsOwn() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a 200 KB payload and 64 KiB segments
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 31) })
        let first = journal()
        _ = first.append(Self.record(1))
        guard case .accepted = first.append(Self.record(2, payload: payload)) else { Issue.record("refused"); return }

        // When the next run reads the journal
        let (records, _) = Self.drain(journal())

        // Then the payload comes back byte for byte
        #expect(records.map(\.reportID) == ["id-1", "id-2"])
        #expect(records.last?.payload == payload)
    }

    @Test func concurrentCallersEachGetTheirOwnFrame() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given four callers appending 5,000 records each while the reader commits
        let journal = journal()
        let read = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<4 {
                group.addTask {
                    for index in 0..<5_000 { _ = journal.append(Self.record(caller * 10_000 + index)) }
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    let (records, _) = Self.drain(journal, limit: 500)
                    read.withLock { $0 += records.map(\.reportID) }
                    await Task.yield()
                }
            }
        }
        read.withLock { $0 += Self.drain(journal).records.map(\.reportID) }

        // Then every record is read exactly once
        let ids = read.withLock { $0 }
        #expect(ids.count == 20_000)
        #expect(Set(ids).count == 20_000)
    }

    /// Writes segment 1 holding `records` records, as an earlier run left it.
    /// - Returns: its file and where each frame starts.
    private func segmentLeftBehind(records: [PendingRecord]) throws -> (url: URL, frames: [Int]) {
        let folder = directory.appendingPathComponent(Journal.directoryName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let segment = try JournalSegment.create(sequence: 1, in: folder, capacity: 64 << 10)
        var offset = JournalSegment.firstFrame
        var frames: [Int] = []
        for record in records {
            let length = JournalRecordCodec.size(of: record)
            segment.reserve(at: offset, bodyLength: length)
            segment.write(record, at: offset, bodyLength: length)
            frames.append(offset)
            offset += JournalSegment.frameSize(body: length)
        }
        return (segment.url, frames)
    }

    /// Changes the bytes of `file` at `offset` on disk.
    private static func overwrite(_ file: URL, at offset: Int, with bytes: [UInt8]) throws {
        var data = try Data(contentsOf: file)
        data.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        try data.write(to: file)
    }

    @Test func aSegmentWithADamagedHeaderGivesUpItsVerifiedRecordsAndCountsTheRestTorn() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a segment of 10 records whose header's magic and version are damaged, and
        // whose seventh frame has a flipped byte
        let sent = (0..<10).map { Self.record($0) }
        let (file, frames) = try segmentLeftBehind(records: sent)
        try Self.overwrite(file, at: 0, with: Array("garbage!".utf8))
        try Self.overwrite(file, at: frames[6] + JournalSegment.frameHeaderSize + JournalRecordCodec.headerSize + 2, with: [0xEE])

        // When the next run reads the journal
        let (records, torn) = Self.drain(journal())

        // Then the six records before the damaged frame come back, the rest count as torn
        // (one: how many frames followed it is unknown), and the file is gone
        #expect(records.map(\.reportID) == sent.prefix(6).map(\.reportID))
        #expect(torn == 1)
        #expect(segmentFiles.allSatisfy { $0.lastPathComponent != file.lastPathComponent })
    }

    @Test func aDamagedHeaderAloneLosesNoRecord() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a segment of 10 records whose whole header was zeroed
        let sent = (0..<10).map { Self.record($0) }
        let (file, _) = try segmentLeftBehind(records: sent)
        try Self.overwrite(file, at: 0, with: Array(repeating: 0, count: JournalSegment.fileHeaderSize))

        // When the next run reads the journal
        let (records, torn) = Self.drain(journal())

        // Then every record comes back and nothing is torn
        #expect(records.map(\.reportID) == sent.map(\.reportID))
        #expect(torn == 0)
    }

    @Test func aDamagedSegmentWithNoRecordThatVerifiesIsDeletedAndCountedTorn() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a segment whose header and first frame are damaged
        let (file, frames) = try segmentLeftBehind(records: (0..<3).map { Self.record($0) })
        try Self.overwrite(file, at: 0, with: [0xFF, 0xFF, 0xFF, 0xFF])
        try Self.overwrite(file, at: frames[0] + 4, with: [0, 0, 0, 0])

        // When the next run opens the journal
        let reopened = journal()
        let recovering = reopened.isRecovering
        let (records, torn) = Self.drain(reopened)

        // Then nothing is read and one torn frame is counted
        #expect(recovering)
        #expect(records.isEmpty && torn == 1)
        // And once the reader retires what it consumed, as the store's writer does after each
        // commit, the damaged file is gone: the run after reads nothing and counts nothing
        _ = reopened.retireConsumed()
        reopened.close()
        let (again, tornAgain) = Self.drain(journal())
        #expect(again.isEmpty && tornAgain == 0)
    }

    @Test func aSegmentWhoseCreationNeverFinishedIsDeletedWithoutALoss() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given a segment file of zeros (its header never written) and one cut short
        let folder = directory.appendingPathComponent(Journal.directoryName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(count: 64 << 10).write(to: folder.appendingPathComponent(JournalSegment.fileName(1)))
        try Data(count: 20).write(to: folder.appendingPathComponent(JournalSegment.fileName(2)))

        // When the next run opens the journal
        let reopened = journal(Journal.Options(segmentBytes: 64 << 10, minSpares: 0))
        let recovering = reopened.isRecovering
        let (records, torn) = Self.drain(reopened)

        // Then both files are deleted, and nothing counts as lost
        #expect(!recovering)
        #expect(records.isEmpty && torn == 0)
        #expect(segmentFiles.isEmpty)
    }
}
