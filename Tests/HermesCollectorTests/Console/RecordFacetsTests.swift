import Foundation
import GRDB
import HermesCollector
import HermesCollectorPostgres
import HermesWire
import PostgresNIO
import Testing

/// The user, session and app version each record's meta names, kept in indexed columns the
/// records page filters by, on every store, for new records and for those stored before the
/// columns existed.
struct RecordFacetsTests {
    typealias Records = ConsoleStorageContractTests
    typealias Contract = CollectorStorageContractTests

    static func stored() throws -> [IngestRecord] {
        [
            try Records.record("a", createTime: 1, user: "ann", extra: ["SESSION_ID": "s1"]),
            try Records.record("b", createTime: 2, user: "bob", extra: ["SESSION_ID": "s1", "APP_VERSION": "2.0"]),
            try Records.record("c", createTime: 3, user: "ann", extra: ["SESSION_ID": "s2"]),
            // Not strings: no facet (the meta filter still matches them as text)
            try Records.record("d", createTime: 4, user: "ann", extra: ["USER_ID": 42, "SESSION_ID": ""]),
            // A value PostgreSQL's text cannot hold (a NUL), and one too long for an index
            try Records.record("e", createTime: 5, user: "nul\u{0}l"),
            try Records.record("f", createTime: 6, user: String(repeating: "x", count: 3_000)),
        ]
    }

    static func ids(_ store: any CollectorStorage, _ configure: (inout EventQuery) -> Void) async throws -> [String] {
        var query = EventQuery()
        configure(&query)
        return try await store.events(query).map(\.reportID)
    }

    /// - Parameter version: the records of app version 1.0.
    static func expectFiltersMatch(_ store: any CollectorStorage, version: [String] = ["a", "c", "d", "e", "f"]) async throws {
        #expect(try await ids(store) { $0.userID = "ann" } == ["a", "c"])
        #expect(try await ids(store) { $0.userID = "bob" } == ["b"])
        #expect(try await ids(store) { $0.sessionID = "s1" } == ["a", "b"])
        #expect(try await ids(store) { $0.sessionID = "" } == [])
        #expect(try await ids(store) { $0.appVersion = "1.0" } == version)
        #expect(
            try await ids(store) {
                $0.userID = "ann"; $0.sessionID = "s2"
            } == ["c"])
        #expect(try await ids(store) { $0.userID = "42" } == [])
        #expect(try await ids(store) { $0.metaEquals = [try! MetaMatch(key: "USER_ID", value: "42")] } == ["d"])
    }

    @Test(arguments: StorageKind.available)
    func userSessionAndVersionFiltersReadTheirColumns(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                _ = try await store.store(Contract.batch(try Self.stored()))
                try await Self.expectFiltersMatch(store)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func aRequestWithAnUnusableHostAndPathIsStoredAndCountedUnderPlaceholders(kind: StorageKind) async throws {
        let time: Int64 = 1_795_400_000_000
        let request = try PerformanceSummaryTests.monitor(
            "n", MonitorType.net, at: time, ["host": "a\u{0}b", "path": .string("/" + String(repeating: "p", count: 5_000)), "durationMs": 12])
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in
                #expect(try await store.store(Contract.batch([request])).stored == 1)
                let hour = time / 60_000 / 60 * 60
                let rows = try await store.performanceRollup(width: PerformanceCell.breakdownWidth, from: hour, until: hour + 60, slotMinutes: 60)
                #expect(rows.map(\.key) == ["? /"])
                #expect(rows.map(\.totals.samples) == [1])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func recordsStoredBeforeTheColumnsGetThemWhenTheStoreIsUpgraded(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store in _ = try await store.store(Contract.batch(try Self.stored())) }
            // Back to the schema before the facets: the columns, their indexes and the rollups gone
            let downgrade = [
                "DROP INDEX events_by_user", "DROP INDEX events_by_session", "DROP TABLE performance_rollup", "DROP TABLE delivery_losses",
                "DROP TABLE device_queues",
                "ALTER TABLE events DROP COLUMN user_id", "ALTER TABLE events DROP COLUMN session_id", "ALTER TABLE events DROP COLUMN app_version",
            ]
            switch kind {
            case .sqlite:
                let queue = try DatabaseQueue(path: database.location)
                try await queue.write { db in
                    for statement in downgrade { try db.execute(sql: statement) }
                    try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'console v2%'")
                }
                try queue.close()
            case .postgres:
                let (store, close) = try await database.open()
                let postgres = try #require(store as? PostgresCollectorStorage)
                for statement in downgrade + ["DELETE FROM hermes_migrations WHERE version = 3"] {
                    try await postgres.client.query(PostgresQuery(unsafeSQL: statement), logger: TestStorage.logger)
                }
                await close()
            }
            // PostgreSQL's json reads no member of a meta that escapes a NUL: that record gets no facets
            try await database.withStore { store in
                try await Self.expectFiltersMatch(store, version: kind == .postgres ? ["a", "c", "d", "f"] : ["a", "c", "d", "e", "f"])
            }
        }
    }
}
