import Foundation
import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// `GET /v1/events/export` and `GET /v1/events/arrivals` on each kind of store.
struct EventExportRouteTests {
    /// A record with the fields the collector checks and `extra` meta members.
    static func record(
        _ id: String, namespace: String = "shop", type: String = "order", time: Int64, extra: [String: JSONValue] = [:], payload: [UInt8]? = nil
    ) throws -> IngestRecord {
        IngestRecord(
            namespace: namespace, reportID: id, monitorType: type, createTime: time,
            meta: try CollectorFixture.metaLine(id, namespace: namespace, type: type, createTime: time, extra: extra), payload: payload)
    }

    /// shop a1 (user u1, session s1, version 1.0, a payload) and shop a2 (a user that reads as a
    /// formula, a campaign with a comma and a quote) from device dev-1 with app key id 5e1f00d1;
    /// other b1 from dev-2.
    static func seed(_ storage: any CollectorStorage) async throws {
        var first = IngestBatch(
            records: [
                try record(
                    "a1", time: 1000, extra: ["USER_ID": "u1", "SESSION_ID": "s1", "APP_VERSION": "1.0"], payload: [1, 2, 3]),
                try record("a2", type: "refund", time: 2000, extra: ["USER_ID": "=HYPERLINK(\"x\")", "campaign": "b,\"c\""]),
            ],
            deviceID: "dev-1", batchID: "batch-1", receivedAt: 42)
        first.appKeyID = "5e1f00d1"
        _ = try await storage.store(first)
        _ = try await storage.store(
            IngestBatch(
                records: [try record("b1", namespace: "other", time: 1500, extra: ["USER_ID": "u1", "SESSION_ID": "s2", "APP_VERSION": "2.0"])],
                deviceID: "dev-2", batchID: nil, receivedAt: 50))
    }

    /// Runs `body` against a collector over a fresh store of `kind`, seeded by `seed`.
    static func withCollector(
        _ kind: StorageKind, seed: (any CollectorStorage) async throws -> Void = Self.seed,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let configuration = try CollectorFixture().configuration
        try await TestStorage.with(kind) { database in
            try await database.withStore { storage in
                try await seed(storage)
                let app = try await buildApplication(configuration: configuration, storage: storage, logger: CollectorFixture.silentLogger)
                try await app.test(.router, body)
            }
        }
    }

    static let metaA1 =
        #"{"APP_VERSION":"1.0","CREATE_TIME":1000,"IS_BIZ":true,"MONITOR_TYPE":"order","NAMESPACE":"shop","REPORT_ID":"a1","SESSION_ID":"s1","USER_ID":"u1"}"#
    static let metaB1 =
        #"{"APP_VERSION":"2.0","CREATE_TIME":1500,"IS_BIZ":true,"MONITOR_TYPE":"order","NAMESPACE":"other","REPORT_ID":"b1","SESSION_ID":"s2","USER_ID":"u1"}"#
    static let metaA2 =
        #"{"CREATE_TIME":2000,"IS_BIZ":true,"MONITOR_TYPE":"refund","NAMESPACE":"shop","REPORT_ID":"a2","USER_ID":"=HYPERLINK(\"x\")","campaign":"b,\"c\""}"#

    /// The whole store exported as `format`, after checking the answer's status and headers.
    static func download(_ client: any TestClientProtocol, _ format: String, type: String) async throws -> String {
        let response = try await client.admin(HermesPath.events + "/export?format=\(format)", method: .get)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == type)
        #expect(response.headers[.contentDisposition] == "attachment; filename=\"hermes-events.\(format)\"")
        return String(buffer: response.body)
    }

    @Test(arguments: StorageKind.available)
    func ndjsonIsOneJSONObjectPerLineOldestFirst(kind: StorageKind) async throws {
        try await Self.withCollector(kind) { client in
            let ndjson = try await Self.download(client, "ndjson", type: "application/x-ndjson")
            #expect(
                ndjson == """
                    {"appKeyID":"5e1f00d1","batchID":"batch-1","createTime":1000,"deviceID":"dev-1","meta":\(Self.metaA1),"monitorType":"order","namespace":"shop","payloadBytes":3,"receivedAt":42,"reportID":"a1"}
                    {"appKeyID":null,"batchID":null,"createTime":1500,"deviceID":"dev-2","meta":\(Self.metaB1),"monitorType":"order","namespace":"other","payloadBytes":null,"receivedAt":50,"reportID":"b1"}
                    {"appKeyID":"5e1f00d1","batchID":"batch-1","createTime":2000,"deviceID":"dev-1","meta":\(Self.metaA2),"monitorType":"refund","namespace":"shop","payloadBytes":null,"receivedAt":42,"reportID":"a2"}

                    """)
        }
    }

    @Test(arguments: StorageKind.available)
    func csvHasAHeaderQuotesCellsAndDefusesFormulas(kind: StorageKind) async throws {
        try await Self.withCollector(kind) { client in
            let csv = try await Self.download(client, "csv", type: "text/csv; charset=utf-8")
            func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            let expected = [
                "namespace,report_id,monitor_type,create_time,received_at,device_id,user_id,session_id,app_version,meta",
                "shop,a1,order,1000,42,dev-1,u1,s1,1.0,\(quoted(Self.metaA1))",
                "other,b1,order,1500,50,dev-2,u1,s2,2.0,\(quoted(Self.metaB1))",
                #"shop,a2,refund,2000,42,dev-1,"'=HYPERLINK(""x"")",,,"# + quoted(Self.metaA2),
            ]
            #expect(csv == expected.map { $0 + "\r\n" }.joined())
        }
    }

    @Test(arguments: StorageKind.available)
    func exportTakesTheFiltersOfEventsAndTheFacets(kind: StorageKind) async throws {
        try await Self.withCollector(kind) { client in
            func ids(_ query: String) async throws -> [String] {
                let response = try await client.admin(HermesPath.events + "/export?" + query, method: .get)
                #expect(response.status == .ok, "\(query)")
                return String(buffer: response.body).split(separator: "\n").map { line in
                    (try? JSONValue(parsing: Array(line.utf8)))?["reportID"]?.stringValue ?? "?"
                }
            }
            #expect(try await ids("namespace=shop") == ["a1", "a2"])
            #expect(try await ids("type=order") == ["a1", "b1"])
            #expect(try await ids("since=1500&until=2000") == ["b1"])
            #expect(try await ids("user=u1") == ["a1", "b1"])
            #expect(try await ids("session=s2") == ["b1"])
            #expect(try await ids("appVersion=1.0") == ["a1"])
            #expect(try await ids("device=dev-1") == ["a1", "a2"])
            #expect(try await ids("meta=campaign%3Db,%22c%22") == ["a2"])
            #expect(try await ids("meta=USER_ID%3Du1&meta=SESSION_ID%3Ds1") == ["a1"])
            #expect(try await ids("limit=2") == ["a1", "b1"])
            #expect(try await ids("user=nobody").isEmpty)
            // And GET /v1/events reads the same facet filters
            let page = try await client.admin(HermesPath.events + "?user=u1&appVersion=2.0", method: .get).json()
            #expect(page["count"] == 1)
        }
    }

    @Test(arguments: StorageKind.available)
    func exportReadsEveryStorePageOnceWhenRecordsShareATime(kind: StorageKind) async throws {
        // Given 2,500 records, 700 to a CREATE_TIME, so that store pages of 1,000 end inside a time
        let count = 2_500
        let seed: (any CollectorStorage) async throws -> Void = { storage in
            for batch in stride(from: 0, to: count, by: 500) {
                let records = try (batch..<batch + 500).map { index in
                    try Self.record(String(format: "r%04d", index), time: 1_000 + Int64(index / 700))
                }
                _ = try await storage.store(IngestBatch(records: records, deviceID: nil, batchID: nil, receivedAt: 9))
            }
        }
        try await Self.withCollector(kind, seed: seed) { client in
            // When the whole store is exported as CSV
            let response = try await client.admin(HermesPath.events + "/export?format=csv", method: .get)
            // Then every record is there once, in (createTime, id) order
            let rows = String(buffer: response.body).split(separator: "\r\n").dropFirst()
            #expect(rows.map { $0.split(separator: ",")[1] } == (0..<count).map { Substring(String(format: "r%04d", $0)) })
            // And a limit past the first store page stops where it says
            let limited = try await client.admin(HermesPath.events + "/export?format=ndjson&limit=1500", method: .get)
            #expect(String(buffer: limited.body).split(separator: "\n").count == 1_500)
        }
    }

    @Test(arguments: ["/v1/events/export", "/v1/events/arrivals"])
    func exportAndArrivalsNeedTheAdminToken(path: String) async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            #expect(try await client.admin(path, method: .get, token: nil).status == .unauthorized)
            #expect(try await client.admin(path, method: .get, token: CollectorFixture.appKey).status == .unauthorized)
        }
    }

    @Test(arguments: [
        ("?format=xml", "format must be ndjson or csv"),
        ("?since=yesterday", "since must be a whole number"),
        ("?limit=0", "limit must be at least 1"),
        ("?meta=campaign", "meta must read key=value"),
        ("?cursor=not-a-cursor", "cursor must be the next value of an earlier page"),
    ])
    func badFilterIsRefusedBeforeAnyByteIsStreamed(query: String, reason: String) async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let response = try await client.admin(HermesPath.events + "/export" + query, method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json")
            #expect(try response.json() == ["error": "invalidQuery", "reason": .string(reason), "scope": "request"])
        }
    }

    @Test(arguments: StorageKind.available)
    func arrivalsAreTheRecordsReceivedSinceWithTheCollectorsClock(kind: StorageKind) async throws {
        try await Self.withCollector(kind) { client in
            let answer = try await client.admin(HermesPath.events + "/arrivals?receivedSince=45", method: .get).json()
            #expect(answer["count"] == 1)
            guard case .array(let events)? = answer["events"] else { throw TestStorageError("no events") }
            #expect(events.map { $0["reportID"] } == ["b1"])
            #expect((answer["now"]?.intValue ?? 0) > 1_700_000_000_000)
            let all = try await client.admin(HermesPath.events + "/arrivals?receivedSince=0&namespace=shop", method: .get).json()
            #expect(all["count"] == 2)
            let none = try await client.admin(HermesPath.events + "/arrivals", method: .get).json()
            #expect(none["count"] == 0)
        }
    }

    @Test func aStoreThatFailsMidStreamCutsTheTransferWithoutItsLastChunk() async throws {
        // Given 1,500 records in a store that fails from its second read of events on
        let storage = try SwitchableStorage()
        let records = try (0..<1_500).map { try Self.record(String(format: "r%04d", $0), time: 1_000 + Int64($0)) }
        _ = try await storage.base.store(IngestBatch(records: records, deviceID: nil, batchID: nil, receivedAt: 9))
        storage.eventReadsLeft.withLock { $0 = 1 }
        let server = try await CollectorServer.start(
            configuration: try CollectorFixture().configuration, storage: storage, logger: CollectorFixture.silentLogger)
        // When the whole store is exported
        let connection = try RawConnection(port: server.port)
        connection.send(
            "GET /v1/events/export HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(CollectorFixture.adminToken)\r\n\r\n")
        let bytes = try #require(await connection.bytesUntilClosed(within: .seconds(30)))
        try await server.shutdown()
        // Then the answer started (200, chunked), holds the first page, and is cut: the
        // connection closed without the last chunk
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.lowercased().contains("transfer-encoding: chunked"))
        #expect(text.components(separatedBy: "\"reportID\":").count - 1 == 1_000)  // one store page
        #expect(!text.hasSuffix("0\r\n\r\n"))
    }

    @Test func aStoreDownBeforeTheFirstPageAnswers503AsJSON() async throws {
        let storage = try SwitchableStorage()
        let app = try await buildApplication(
            configuration: try CollectorFixture().configuration, storage: storage, logger: CollectorFixture.silentLogger)
        storage.isDown = true
        try await app.test(.router) { client in
            let response = try await client.admin(HermesPath.events + "/export?format=csv", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.contentType] == "application/json")
            #expect(try response.json()["error"] == "storageFailed")
        }
    }
}
