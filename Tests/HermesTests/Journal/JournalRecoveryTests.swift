import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Logging
import Testing

struct JournalRecoveryTests {
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
        // (no spares: a preparer still making one after the client looked would leave a file behind)
        let journal = Journal(
            storageDirectory: harness.directory, options: Journal.Options(minSpares: 0),
            fileProtection: .none, logger: .init(label: "hermes.tests"))
        let builder = RecordBuilder(
            app: .init(name: "Demo", version: "1.2.0", build: "42"),
            device: DeviceInfo(osName: "TestOS", osVersion: "1.0", model: "Tester"), deviceID: "device")
        for index in 0..<500 {
            let input = RecordBuilder.Input(type: "appLag", namespace: "hermes", meta: ["i": .int(Int64(index))], payload: nil)
            let (record, _) = try builder.build(input, configuration: .hermesDefault, draw: { 0 }, now: harness.now, reportID: "r-\(index)").get()
            _ = journal.append(record)
        }

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
}
