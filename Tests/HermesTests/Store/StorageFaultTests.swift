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
        await client.shutdown()

        // Then the corrupt file is kept aside and the new record is stored
        #expect(outcome.isAccepted)
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
}
