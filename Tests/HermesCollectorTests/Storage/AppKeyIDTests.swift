import GRDB
@testable import HermesCollector
import HermesCollectorPostgres
import HermesWire
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

/// Each record is stored with the id of the app key its upload carried, never the key.
struct AppKeyIDTests {
    typealias Contract = CollectorStorageContractTests

    /// The `app_key_id` column of every record, by report id.
    static func storedIDs(_ database: TestStorage) async throws -> [String: String?] {
        let sql = "SELECT report_id, app_key_id FROM events"
        switch database.kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.location)
            defer { try? queue.close() }
            return try await queue.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: sql).map { ($0[0] as String, $0[1] as String?) })
            }
        case .postgres:
            let (store, close) = try await database.open()
            defer { Task { await close() } }
            let postgres = try #require(store as? PostgresCollectorStorage)
            var ids: [String: String?] = [:]
            for try await (id, key) in try await postgres.client.query(PostgresQuery(unsafeSQL: sql), logger: TestStorage.logger).decode(
                (String, String?).self)
            {
                ids[id] = key
            }
            return ids
        }
    }

    @Test(arguments: StorageKind.available)
    func aBatchsAppKeyIDIsStoredWithEachRecord(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                var batch = Contract.batch([try Contract.record("a"), try Contract.record("b")])
                batch.appKeyID = "0a1b2c3d"
                _ = try await store.store(batch)
                _ = try await store.store(Contract.batch([try Contract.record("c")], batchID: "no-key"))
            }
            #expect(try await Self.storedIDs(database) == ["a": "0a1b2c3d", "b": "0a1b2c3d", "c": nil])
        }
    }

    @Test func anUploadStoresItsKeysIDNotTheKey() async throws {
        let fixture = try CollectorFixture()
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let body = try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("r1")]))
        try await fixture.test { client throws in #expect(try await client.upload(body, kind: .meta).status == .ok) }
        let id = try await fixture.storage.writer.read { db in try String.fetchOne(db, sql: "SELECT app_key_id FROM events") }
        #expect(id == AppKeyID.of(CollectorFixture.appKey))
        #expect(id?.count == 8 && id != CollectorFixture.appKey)
    }
}
