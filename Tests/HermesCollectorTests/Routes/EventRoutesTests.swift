import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct EventRoutesTests {
    /// shop: order@1000, order@2000 (with payload), refund@3000; other: order@1500.
    static func seededFixture() async throws -> CollectorFixture {
        let fixture = try CollectorFixture()
        func record(_ id: String, _ namespace: String, _ type: String, _ time: Int64, payload: [UInt8]? = nil) throws -> IngestRecord {
            IngestRecord(
                namespace: namespace, reportID: id, monitorType: type, createTime: time,
                meta: try CollectorFixture.metaLine(id, namespace: namespace, type: type, createTime: time), payload: payload
            )
        }
        _ = try await fixture.storage.store(
            IngestBatch(
                records: [
                    try record("s3", "shop", "refund", 3000),
                    try record("s1", "shop", "order", 1000),
                    try record("o1", "other", "order", 1500),
                    try record("s2", "shop", "order", 2000, payload: [1, 2, 3]),
                ],
                deviceID: "device-9", batchID: nil, receivedAt: 42
            ))
        return fixture
    }

    static func reportIDs(_ client: any TestClientProtocol, _ query: String) async throws -> [String] {
        let response = try await client.admin(HermesPath.events + query, method: .get)
        #expect(response.status == .ok, "\(query)")
        let json = try response.json()
        guard case .array(let events)? = json["events"] else {
            Issue.record("no events array for \(query)")
            return []
        }
        let ids = events.compactMap { $0["reportID"]?.stringValue }
        #expect(json["count"] == .int(Int64(ids.count)))
        return ids
    }

    @Test func eventsAreFilteredByNamespaceTypeTimeAndLimit() async throws {
        let fixture = try await Self.seededFixture()
        try await fixture.test { client throws in
            #expect(try await Self.reportIDs(client, "") == ["s1", "o1", "s2", "s3"])
            #expect(try await Self.reportIDs(client, "?namespace=shop") == ["s1", "s2", "s3"])
            #expect(try await Self.reportIDs(client, "?namespace=shop&type=order") == ["s1", "s2"])
            #expect(try await Self.reportIDs(client, "?type=order") == ["s1", "o1", "s2"])
            #expect(try await Self.reportIDs(client, "?since=1500&until=3000") == ["o1", "s2"])
            #expect(try await Self.reportIDs(client, "?namespace=shop&since=2000") == ["s2", "s3"])
            #expect(try await Self.reportIDs(client, "?limit=2") == ["s1", "o1"])
            #expect(try await Self.reportIDs(client, "?namespace=nobody").isEmpty)
        }
    }

    @Test func eventShowsMetaPayloadSizeAndOrigin() async throws {
        let fixture = try await Self.seededFixture()
        try await fixture.test { client throws in
            let json = try await client.admin(HermesPath.events + "?namespace=shop&type=order", method: .get).json()
            #expect(
                json["events"] == [
                    [
                        "namespace": "shop", "reportID": "s1", "monitorType": "order", "createTime": 1000,
                        "meta": ["REPORT_ID": "s1", "NAMESPACE": "shop", "MONITOR_TYPE": "order", "IS_BIZ": true, "CREATE_TIME": 1000],
                        "payloadBytes": nil, "deviceID": "device-9", "batchID": nil, "receivedAt": 42, "appKeyID": nil,
                    ],
                    [
                        "namespace": "shop", "reportID": "s2", "monitorType": "order", "createTime": 2000,
                        "meta": ["REPORT_ID": "s2", "NAMESPACE": "shop", "MONITOR_TYPE": "order", "IS_BIZ": true, "CREATE_TIME": 2000],
                        "payloadBytes": 3, "deviceID": "device-9", "batchID": nil, "receivedAt": 42, "appKeyID": nil,
                    ],
                ])
        }
    }

    @Test func countIgnoresTheLimit() async throws {
        let fixture = try await Self.seededFixture()
        try await fixture.test { client throws in
            let shop = try await client.admin(HermesPath.events + "/count?namespace=shop&limit=1", method: .get)
            #expect(try shop.json() == ["count": 3])
            let orders = try await client.admin(HermesPath.events + "/count?type=order", method: .get)
            #expect(try orders.json() == ["count": 3])
        }
    }

    @Test(arguments: ["/v1/events", "/v1/events/count"])
    func eventsNeedTheAdminToken(path: String) async throws {
        let fixture = try await Self.seededFixture()
        try await fixture.test { client throws in
            #expect(try await client.admin(path, method: .get, token: nil).status == .unauthorized)
            #expect(try await client.admin(path, method: .get, token: CollectorFixture.appKey).status == .unauthorized)
        }
    }

    @Test(arguments: [
        ("?limit=0", "limit must be between 1 and 10000"),
        ("?limit=10001", "limit must be between 1 and 10000"),
        ("?since=yesterday", "since must be a whole number"),
        ("?until=1.5", "until must be a whole number"),
        ("?cursor=not-a-cursor", "cursor must be the next value of an earlier page"),
    ])
    func badQueryIsRefusedWithReason(query: String, reason: String) async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let response = try await client.admin(HermesPath.events + query, method: .get)
            #expect(response.status == .badRequest)
            #expect(try response.json() == ["error": "invalidQuery", "reason": .string(reason), "scope": "request"])
        }
    }

    @Test func aPageWithMoreAfterItCarriesACursorAndTheLastPageNone() async throws {
        let fixture = try await Self.seededFixture()
        try await fixture.test { client throws in
            // When the four events are read three at a time, following next
            let first = try await client.admin(HermesPath.events + "?limit=3", method: .get).json()
            let next = try #require(first["next"]?.stringValue)
            let second = try await client.admin(HermesPath.events + "?limit=3&cursor=\(next)", method: .get).json()
            // Then the pages hold them in order, and the last page, which has nothing after it, no next
            let ids = [first, second].flatMap { page -> [String] in
                guard case .array(let events)? = page["events"] else { return [] }
                return events.compactMap { $0["reportID"]?.stringValue }
            }
            #expect(ids == ["s1", "o1", "s2", "s3"])
            #expect(second["count"] == 1)
            #expect(second["next"] == .null)
            // A full page that ends with the last event has no next either
            let all = try await client.admin(HermesPath.events + "?limit=4", method: .get).json()
            #expect(all["count"] == 4 && all["next"] == .null)
        }
    }

    @Test func maximumLimitIsAccepted() async throws {
        let fixture = try await Self.seededFixture()
        try await fixture.test { client throws in
            #expect(try await Self.reportIDs(client, "?limit=10000").count == 4)
        }
    }
}
