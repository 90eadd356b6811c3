import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Logging
import Testing

struct JournalRecoveryTests {
    /// Leaves in `harness`'s folder a journal as an earlier run does: `count` `appLag` records
    /// (meta `i` from 0) the store never took, sent by app version `version`. No spares: a
    /// preparer still making one after the client looked would leave a file behind.
    private static func leaveJournal(records count: Int, version: String = "1.2.0", in harness: Harness) throws {
        let journal = Journal(
            storageDirectory: harness.directory, options: Journal.Options(minSpares: 0),
            fileProtection: .none, logger: .init(label: "hermes.tests"))
        let builder = RecordBuilder(
            app: .init(name: "Demo", version: version, build: "42"),
            device: DeviceInfo(osName: "TestOS", osVersion: "1.0", model: "Tester"), deviceID: "device")
        let rules = SendRules(namespace: RecordNamespace.monitoring, configuration: .hermesDefault)
        for index in 0..<count {
            let input = RecordBuilder.Input(type: "appLag", namespace: "hermes", meta: ["i": .int(Int64(index))], payload: nil)
            let record = try builder.build(input, rules: rules, draw: { 0 }, now: harness.now, reportID: "r-\(index)").record
            _ = journal.append(record)
        }
    }

    @Test func recordsCommittedAndDeliveredBeforeACrashAreNotStoredAgain() async throws {
        // Given a client that committed 10 records, whose rows were then delivered (deleted),
        // and which died without shutting down (its journal segment is still on disk)
        let harness = Harness()
        let first = try harness.client()
        for index in 0..<10 { first.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        try await first.flush()
        try harness.write { try $0.execute(sql: "DELETE FROM meta") }

        // When the next run starts and recovers the journal
        let second = try harness.client()
        second.start()
        second.send(type: "appLag", meta: ["i": 10])
        try await second.flush()
        await second.shutdown()

        // Then only the new record is in the store, and nothing was counted as torn
        #expect(try harness.metas("meta").map { $0["i"]?.intValue } == [10])
        #expect(second.diagnostics().lost(StoreWriter.tornNamespace, .torn) == 0)
    }

    @Test func recordsLeftInTheJournalAreStoredAtStartAndFlushWaitsForThem() async throws {
        // Given a journal holding 500 records the store never took (written by an earlier run)
        let harness = Harness()
        try Self.leaveJournal(records: 500, in: harness)

        // When a client starts on that folder and flushes
        let client = try harness.client()
        client.start()
        try await client.flush()
        await client.shutdown()

        // Then every record is stored once, in order, and the journal folder holds no segment
        #expect(try harness.metas("meta").map { $0["i"]?.intValue } == (0..<500).map { Int64($0) })
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.directory.appendingPathComponent(Journal.directoryName).path)
        #expect(left.filter { $0.hasSuffix(".journal") }.isEmpty)
    }

    @Test func housekeepingJudgesTheRecordsLeftInTheJournalThoughABurstIsSentAtLaunch() async throws {
        // Given a journal holding 20,000 records of app version 1.1.0 the store never took (the
        // hermes namespace clears other versions' rows at start)
        let harness = Harness()
        try Self.leaveJournal(records: 20_000, version: "1.1.0", in: harness)

        // When version 1.2.0 starts offline and sends a burst of 3,000 at once; `upload()`
        // returns once start-up housekeeping is done, which runs between the writer's
        // transactions once the earlier run's records are in, not after the whole burst
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.maxCacheCount = 100_000  // no eviction: every old record is housekeeping's
        let client = try harness.client(
            version: "1.2.0", defaults: ["hermes": hermes, "JZ": Harness.jz], network: StaticNetworkMonitor(.unreachable))
        client.start()
        for index in 3_000..<6_000 { client.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        _ = await client.upload()
        try await client.flush()
        await client.shutdown()

        // Then every record of the earlier version was cleared and counted, and the burst is whole
        #expect(try harness.metas("meta").map { $0["i"]?.intValue } == (3_000..<6_000).map { Int64($0) })
        #expect(client.diagnostics().lost("hermes", .appVersionCleared) == 20_000)
    }

    @Test func aSegmentWithADamagedHeaderIsCountedAndLoggedAndItsVerifiedRecordsAreStored() async throws {
        // Given one journal segment holding 350 records an earlier run left, whose header's
        // magic was overwritten and whose 201st frame has a damaged byte
        let harness = Harness()
        try Self.leaveJournal(records: 350, in: harness)
        let folder = harness.directory.appendingPathComponent(Journal.directoryName)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "journal" }
        let file = try #require(files.count == 1 ? files.first : nil)
        var bytes = try Data(contentsOf: file)
        var frame = JournalSegment.firstFrame
        for _ in 0..<200 {
            let length = Int(bytes[frame]) | Int(bytes[frame + 1]) << 8 | Int(bytes[frame + 2]) << 16 | Int(bytes[frame + 3]) << 24
            frame += JournalSegment.frameSize(body: length)
        }
        bytes.replaceSubrange(0..<4, with: Array("XXXX".utf8))
        bytes[frame + JournalSegment.frameHeaderSize + JournalRecordCodec.headerSize + 1] ^= 0x40
        try bytes.write(to: file)

        // When a client starts on that folder and flushes
        let logs = CapturedLogs()
        let client = try HermesClient(configuration: harness.configuration(), logger: logs.logger)
        client.start()
        try await client.flush()
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then the 200 records before the damage are stored, the rest count as torn (at
        // least one: how many frames followed the damaged one is unknown), one error line
        // names the file, and the segment is gone
        #expect(try harness.metas("meta").map { $0["i"]?.intValue } == (0..<200).map { Int64($0) })
        #expect(diagnostics.lost(StoreWriter.tornNamespace, .torn) == 1)
        let errors = logs.all.filter { $0.level == .error && $0.message.contains("header is damaged") }
        #expect(errors.count == 1)
        #expect(errors.first?.metadata["file"] == file.lastPathComponent)
        #expect(errors.first?.metadata["records"] == "200" && errors.first?.metadata["torn"] == "1")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
