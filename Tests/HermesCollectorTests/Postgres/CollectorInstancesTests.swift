import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HermesCollector
import HermesWire
import Testing

/// Two collector servers in this process on one PostgreSQL database, as two instances behind a
/// load balancer, spoken to over loopback HTTP.
@Suite(.enabled(if: StorageKind.available.contains(.postgres)))
struct CollectorInstancesTests {
    @Test func adminEditThroughOneInstanceIsServedByTheOtherWithinASecond() async throws {
        try await Self.withTwoInstances { a, b in
            // Given both instances serving revision 0 with the same ETag
            let before = try await Self.get(a, HermesPath.config)
            #expect(before.eTag == "\"0\"")
            #expect(try await Self.get(b, HermesPath.config, ifNoneMatch: before.eTag).status == 304)
            // When an admin sets a namespace through A
            let edit = try await Self.send(a, "/v1/admin/namespaces/shop/config", method: "PUT", body: Array(#"{"maxItem":42}"#.utf8), admin: true)
            #expect(edit.status == 200)
            let started = ContinuousClock.now
            // Then B serves revision 1 within a second (polled every 10 ms, 100 times at most)
            var seen = try await Self.get(b, HermesPath.config, ifNoneMatch: before.eTag)
            for _ in 0..<100 where seen.status == 304 {
                try await Task.sleep(for: .milliseconds(10))
                seen = try await Self.get(b, HermesPath.config, ifNoneMatch: before.eTag)
            }
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(seen.status == 200)
            #expect(seen.eTag == "\"1\"")
            // And both serve the same bytes for it, and 304 to a client that has it
            let fromA = try await Self.get(a, HermesPath.config)
            #expect(fromA.eTag == seen.eTag)
            #expect(fromA.body == seen.body)
            #expect(try ConfigurationDocument(jsonBytes: seen.body).namespaces["shop"]?.maxItem == 42)
            #expect(try await Self.get(a, HermesPath.config, ifNoneMatch: seen.eTag).status == 304)
            #expect(try await Self.get(b, HermesPath.config, ifNoneMatch: seen.eTag).status == 304)
        }
    }

    @Test func editsThroughBothInstancesEachMakeARevision() async throws {
        try await Self.withTwoInstances { a, b in
            // When each instance sets a different namespace at the same moment
            async let first = Self.send(a, "/v1/admin/namespaces/one/config", method: "PUT", body: Array("{}".utf8), admin: true)
            async let second = Self.send(b, "/v1/admin/namespaces/two/config", method: "PUT", body: Array("{}".utf8), admin: true)
            #expect(try await [first.status, second.status] == [200, 200])
            // Then the saved document has both, as revision 2, and each instance serves it
            for instance in [a, b] {
                var response = try await Self.get(instance, HermesPath.config)
                for _ in 0..<100 where response.eTag != "\"2\"" {
                    try await Task.sleep(for: .milliseconds(10))
                    response = try await Self.get(instance, HermesPath.config)
                }
                let document = try ConfigurationDocument(jsonBytes: response.body)
                #expect(document.revision == 2)
                #expect(document.namespaces["one"] != nil && document.namespaces["two"] != nil)
            }
        }
    }

    @Test func sameBatchPostedToBothInstancesAtOnceIsStoredOnce() async throws {
        try await Self.withTwoInstances { a, b in
            let format = try #require(try CollectorFixture.formats()["v2-gcm"])
            let lines = try (0..<100).map { try CollectorFixture.metaLine("r\($0)", createTime: 1_795_400_000_000 + Int64($0)) }
            let body = try format.encode(Packet(kind: .meta, metaLines: lines))
            // When the same upload reaches both instances at once, 5 times
            var stored = 0, duplicates = 0
            for _ in 0..<5 {
                async let first = Self.upload(a, body)
                async let second = Self.upload(b, body)
                for answer in try await [first, second] {
                    stored += Int(answer["stored"]?.intValue ?? -1_000)
                    duplicates += Int(answer["duplicates"]?.intValue ?? -1_000)
                }
            }
            // Then every record is stored once, and the answers say so
            #expect(stored == 100)
            #expect(duplicates == 900)
            let count = try await Self.get(a, HermesPath.events + "/count", admin: true)
            #expect(try JSONValue(parsing: count.body)["count"] == 100)
        }
    }

    // MARK: - Support

    struct Answer {
        var status: Int
        var eTag: String?
        var body: [UInt8]
    }

    static func withTwoInstances(_ body: (CollectorServer, CollectorServer) async throws -> Void) async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { storeA in
                try await database.withStore { storeB in
                    let configuration = try CollectorFixture().configuration
                    let a = try await CollectorServer.start(configuration: configuration, storage: storeA, logger: TestStorage.logger)
                    let b: CollectorServer
                    do {
                        b = try await CollectorServer.start(configuration: configuration, storage: storeB, logger: TestStorage.logger)
                    } catch {
                        try await a.shutdown()
                        throw error
                    }
                    do {
                        try await body(a, b)
                    } catch {
                        try await a.shutdown()
                        try await b.shutdown()
                        throw error
                    }
                    try await a.shutdown()
                    try await b.shutdown()
                }
            }
        }
    }

    static func get(_ server: CollectorServer, _ path: String, ifNoneMatch: String? = nil, admin: Bool = false) async throws -> Answer {
        try await send(server, path, method: "GET", headers: ["If-None-Match": ifNoneMatch], admin: admin)
    }

    static func upload(_ server: CollectorServer, _ body: [UInt8]) async throws -> JSONValue {
        let answer = try await send(
            server, HermesPath.upload(.meta), method: "POST", body: body,
            headers: [
                HermesHeader.appKey: CollectorFixture.appKey, HermesHeader.namespace: CollectorFixture.namespace, HermesHeader.packetVersion: "2",
            ])
        #expect(answer.status == 200)
        return try JSONValue(parsing: answer.body)
    }

    static func send(
        _ server: CollectorServer, _ path: String, method: String, body: [UInt8]? = nil, headers: [String: String?] = [:], admin: Bool = false
    ) async throws -> Answer {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)")))
        request.httpMethod = method
        request.httpBody = body.map { Data($0) }
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        for case let (name, value?) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if admin { request.setValue("Bearer \(CollectorFixture.adminToken)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, eTag: http.value(forHTTPHeaderField: "ETag"), body: Array(data))
    }
}
