import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

struct StorageFaultTests {
    @Test func aCorruptFileIsMovedAsideAndANewStoreTakesRecords() async throws {
        // Given a store file overwritten with random bytes
        let harness = Harness()
        let first = try harness.client()
        first.send(type: "appLag", meta: ["a": 1])
        try await first.flush()
        await first.shutdown()
        var random = SplitMix64(seed: 1)
        let garbage = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) })
        try garbage.write(to: URL(fileURLWithPath: harness.databasePath))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: harness.databasePath + suffix) }

        // When a client starts on it and sends
        let client = try harness.client()
        client.start()
        let outcome = client.send(type: "appBoot", meta: ["after": "corruption"])
        try await client.flush()
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then the corrupt file is kept aside and listed (its rows cannot be counted), and the
        // new record is stored
        #expect(outcome.isAccepted)
        #expect(diagnostics.quarantinedFiles.count == 1)
        #expect(diagnostics.losses.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.directory.path)
        let quarantined = try #require(files.first { $0.hasPrefix("hermes.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(try Data(contentsOf: harness.directory.appendingPathComponent(quarantined)) == garbage)
        #expect(try harness.metas("meta").map { $0["after"] } == ["corruption"])
    }

    @Test func anUnwritableStoreBuffersInMemoryUntilItCanBeWritten() async throws {
        // Given a storage path that cannot be a folder (a plain file is in the way)
        let harness = Harness()
        try FileManager.default.createDirectory(at: harness.directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: harness.directory)
        let client = try harness.client(memoryBufferLimit: 20)

        // When records are sent, the first attempt fails and memory takes up to the bound
        #expect(client.send(type: "appLag", meta: ["i": 0]).isAccepted)
        await #expect(throws: HermesError.self) { try await client.flush() }
        var accepted = 1
        var refused: HermesError.Code?
        for index in 1..<30 {
            let outcome = client.send(type: "appLag", meta: ["i": .int(Int64(index))])
            if outcome.isAccepted { accepted += 1 } else { refused = outcome.code; break }
        }
        #expect(accepted == 20)
        #expect(refused == .bufferFull)
        #expect(client.diagnostics().bufferedRecords == 20)

        // Then once the folder can be made, every buffered record lands
        try FileManager.default.removeItem(at: harness.directory)
        try await client.flush()
        await client.shutdown()
        #expect(try harness.metas("meta").map { $0["i"]?.intValue } == (0..<20).map { Int64($0) })
    }

    @Test(arguments: [true, false])
    func refusalsForAFullJournalAreLoggedOncePerRunWithTheirCount(endsWithAnAcceptedRecord: Bool) async throws {
        // Given an unwritable store and room for 20 records in memory
        let harness = Harness()
        try FileManager.default.createDirectory(at: harness.directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: harness.directory)
        let logs = CapturedLogs()
        let client = try HermesClient(configuration: harness.configuration(memoryBufferLimit: 20), logger: logs.logger)
        for index in 0..<20 { #expect(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).isAccepted) }

        // When 50 sends are refused, then the store becomes writable and one record is
        // accepted, or the client shuts down
        #expect((0..<50).allSatisfy { _ in client.send(type: "appLag", meta: ["refused": true]).code == .bufferFull })
        if endsWithAnAcceptedRecord {
            try FileManager.default.removeItem(at: harness.directory)
            try await client.flush()
            #expect(client.send(type: "appLag", meta: ["i": 20]).isAccepted)
        }
        await client.shutdown()

        // Then the first refusal was logged, and the other 49 as one line with their count
        let refusals = logs.all.filter { $0.metadata["code"] == "\(HermesError.Code.bufferFull)" }
        #expect(refusals.map(\.message) == ["hermes: record rejected", "hermes: more records were rejected while the journal was full"])
        #expect(refusals.map { $0.metadata["records"] } == [nil, "49"])
        #expect(refusals.last?.metadata["until"] == (endsWithAnAcceptedRecord ? "a record was accepted" : "shutdown"))
    }

    @Test func aFullDatabaseBuffersAndRecoversWhenSpaceReturns() async throws {
        // Given a store capped at its current size (PRAGMA max_page_count)
        let harness = Harness()
        let client = try harness.client()
        client.send(type: "appLag", meta: ["warm": true])
        try await client.flush()
        try await client.writer.perform { store in
            try store.pool.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
        }

        // When many records arrive, the writes fail but send keeps accepting
        let blob = String(repeating: "x", count: 2_000)
        let outcomes = (0..<200).map { client.send(type: "appLag", meta: ["i": .int(Int64($0)), "blob": .string(blob)]) }
        #expect(outcomes.allSatisfy { $0.isAccepted })
        await #expect(throws: HermesError.self) { try await client.flush() }

        // Then raising the cap lets every record land, once
        try await client.writer.perform { store in
            try store.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
        }
        try await client.flush()
        await client.shutdown()
        let stored = try harness.metas("meta").compactMap { $0["i"]?.intValue }
        #expect(stored == (0..<200).map { Int64($0) })
    }

    @Test func aDamagedIndexMovesTheStoreAsideAndCountsItsRowsAsLost() async throws {
        // Given a store of 5 hermes and 3 JZ records whose meta indexes are overwritten
        let harness = Harness()
        let first = try harness.client()
        for index in 0..<5 { first.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        for index in 0..<3 { first.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]) }
        try await first.flush()
        await first.shutdown()
        let (pageSize, indexPages) = try harness.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096,
                try Int.fetchAll(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'meta'")
            )
        }
        #expect(!indexPages.isEmpty)
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: harness.databasePath))
        for page in indexPages {
            try file.seek(toOffset: UInt64((page - 1) * pageSize))
            file.write(Data(repeating: 0xA5, count: pageSize))
        }
        try file.close()

        // When a client starts on it and sends
        let client = try harness.client()
        client.start()
        #expect(client.send(type: "appBoot", meta: ["after": "damage"]).isAccepted)
        try await client.flush()
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then the file is moved aside, its rows count as lost per namespace, and the new record is stored
        #expect(diagnostics.quarantinedFiles.count == 1)
        #expect(diagnostics.lost("hermes", .quarantined) == 5)
        #expect(diagnostics.lost("JZ", .quarantined) == 3)
        #expect(try harness.metas("meta").map { $0["after"] } == ["damage"])
    }

    @Test func aTornWALTailLosesOnlyItsLastTransactionAndTheClientGoesOn() async throws {
        // Given a store whose last transaction's WAL frames were cut short (a torn write)
        let harness = Harness()
        let client = try harness.client()
        for index in 0..<3 { client.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        try await client.flush()
        let walPath = harness.databasePath + "-wal"
        let intactBytes = try Data(contentsOf: URL(fileURLWithPath: walPath)).count
        for index in 3..<6 { client.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        try await client.flush()
        let database = try Data(contentsOf: URL(fileURLWithPath: harness.databasePath))
        let wal = try Data(contentsOf: URL(fileURLWithPath: walPath))
        #expect(wal.count > intactBytes)
        await client.shutdown()
        try database.write(to: URL(fileURLWithPath: harness.databasePath))
        try wal.prefix(intactBytes + (wal.count - intactBytes) / 2).write(to: URL(fileURLWithPath: walPath))
        try? FileManager.default.removeItem(atPath: harness.databasePath + "-shm")

        // When a client opens it and sends
        let reopened = try harness.client()
        reopened.start()
        #expect(reopened.send(type: "appBoot", meta: ["after": "tear"]).isAccepted)
        try await reopened.flush()
        let diagnostics = reopened.diagnostics()
        await reopened.shutdown()

        // Then SQLite keeps every transaction before the tear (the group commit may have written
        // 3…5 in more than one), drops the torn one, the store is not moved aside, and the new
        // record lands after them
        #expect(diagnostics.quarantinedFiles.isEmpty)
        let stored = try harness.metas("meta").map { $0["i"]?.intValue ?? -1 }
        let kept = stored.dropLast()
        #expect(stored.last == -1)
        #expect(Array(kept) == Array(0..<Int64(kept.count)))
        #expect((3...5).contains(kept.count))
    }

    @Test func recordsTheStoreNeverTookAreCountedAsUnsavedAtShutdown() async throws {
        // Given a client whose storage folder cannot be made
        let harness = Harness()
        try FileManager.default.createDirectory(at: harness.directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: harness.directory)
        let client = try harness.client()

        // When it accepts records and shuts down before the store can be written
        for index in 0..<4 { #expect(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).isAccepted) }
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["i": 0]).isAccepted)
        await client.shutdown()

        // Then each is counted as lost, per namespace
        #expect(client.diagnostics().lost("hermes", .unsaved) == 4)
        #expect(client.diagnostics().lost("JZ", .unsaved) == 1)
    }
}
