import ArgumentParser
import Foundation
@testable import hermes
import Hermes
import HermesCollector
import HermesHarness
import HermesWire
import Testing

/// `hermes events` against a collector on loopback.
struct EventsCommandTests {
    /// JZ p1 (user u1) and p2 (user u2), KX v1, received a minute ago.
    static func seed(_ loopback: Loopback) async throws {
        func record(_ id: String, _ namespace: String, _ type: String, _ time: Int64, user: String) throws -> IngestRecord {
            let meta: JSONValue = [
                RecordField.reportID: .string(id), RecordField.namespace: .string(namespace), RecordField.monitorType: .string(type),
                RecordField.createTime: .int(time), RecordField.isBusiness: true, RecordField.userID: .string(user),
            ]
            return IngestRecord(namespace: namespace, reportID: id, monitorType: type, createTime: time, meta: try meta.jsonBytes(), payload: nil)
        }
        _ = try await loopback.storage.store(
            IngestBatch(
                records: [
                    try record("p1", "JZ", "JZ-pay", 1_000, user: "u1"), try record("v1", "KX", "KX-view", 2_000, user: "u1"),
                    try record("p2", "JZ", "JZ-pay", 3_000, user: "u2"),
                ],
                deviceID: "device-1", batchID: nil, receivedAt: CollectorConfiguration.systemWallClock() - 60_000))
    }

    static func command(_ arguments: [String]) throws -> EventsCommand {
        try #require(try HermesCommand.parseAsRoot(["events"] + arguments) as? EventsCommand)
    }

    static func output(_ listing: EventListing) async throws -> String {
        var text = ""
        try await listing.run { text += $0 }
        return text
    }

    @Test func ndjsonAndCSVAreWhatTheExportWrites() async throws {
        // Given a collector holding three records
        let loopback = try Loopback()
        try await Self.seed(loopback)
        let server = try await loopback.startCollector()
        let collector = "http://127.0.0.1:\(server.port)"
        for format in ["ndjson", "csv"] {
            // When hermes events lists them, two records to a page
            var listing = try Self.command(["--collector", collector, "--token", Loopback.adminToken, "--format", format]).listing
            let printed = try await Self.output(listing)
            // Then it prints the export's bytes
            let export = try await loopback.request(
                "GET", port: server.port, path: "/v1/events/export?format=\(format)", headers: ["Authorization": "Bearer \(Loopback.adminToken)"])
            #expect(export.status == 200)
            #expect(printed == String(decoding: export.body, as: UTF8.self))
            #expect(printed.filter { $0 == "\n" || $0 == "\r\n" }.count == (format == "csv" ? 4 : 3))
            // And a filtered listing with a limit prints the first matching records only
            listing = try Self.command([
                "--collector", collector, "--token", Loopback.adminToken, "--format", format, "--user", "u1", "--limit", "1",
            ]).listing
            #expect(try await Self.output(listing).contains("p1"))
            #expect(try await !Self.output(listing).contains("v1"))
        }
        try await server.shutdown()
    }

    @Test func tableIsOneFixedWidthLinePerRecord() async throws {
        let loopback = try Loopback()
        try await Self.seed(loopback)
        let server = try await loopback.startCollector()
        let listing = try Self.command([
            "--collector", "http://127.0.0.1:\(server.port)", "--token", Loopback.adminToken, "--format", "table", "--namespace", "JZ",
        ]).listing
        let printed = try await Self.output(listing)
        try await server.shutdown()
        #expect(
            printed == """
                CREATED (UTC)             NAMESPACE     TYPE                    USER              DEVICE            REPORT ID
                1970-01-01T00:00:01.000Z  JZ            JZ-pay                  u1                device-1          p1
                1970-01-01T00:00:03.000Z  JZ            JZ-pay                  u2                device-1          p2

                """)
    }

    @Test func aRefusedRequestSaysTheCollectorsCodeAndReason() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let listing = try Self.command(["--collector", "http://127.0.0.1:\(server.port)", "--token", "wrong"]).listing
        await #expect {
            try await listing.run { _ in }
        } throws: { error in
            "\(error)"
                == "the collector refused GET /v1/events (HTTP 401, unauthorized): this endpoint needs a token with the read scope: Authorization: Bearer <token>"
        }
        try await server.shutdown()
    }

    @Test func followPrintsARecordThatArrivesAfterTheStoredOnes() async throws {
        // Given a collector holding three records, and a transport that stores one more
        // record just before the first follow poll reaches the collector
        let loopback = try Loopback()
        try await Self.seed(loopback)
        let server = try await loopback.startCollector()
        let storage = loopback.storage
        let transport = ArrivingTransport { [storage] in
            let meta: JSONValue = [
                RecordField.reportID: "late", RecordField.namespace: "JZ", RecordField.monitorType: "JZ-pay", RecordField.createTime: 500,
                RecordField.isBusiness: true,
            ]
            let record = IngestRecord(
                namespace: "JZ", reportID: "late", monitorType: "JZ-pay", createTime: 500, meta: try meta.jsonBytes(), payload: nil)
            _ = try await storage.store(
                IngestBatch(records: [record], deviceID: "device-2", batchID: nil, receivedAt: CollectorConfiguration.systemWallClock()))
        }
        var listing = EventListing(
            client: EventsClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, token: Loopback.adminToken, transport: transport),
            filter: EventFilter(), format: .ndjson, limit: 4, follow: true)
        listing.pollInterval = .milliseconds(10)
        // When it lists them and follows until four records are printed
        let printed = try await Self.output(listing)
        try await server.shutdown()
        // Then the late record comes last, once, although it was made before the others
        let ids = printed.split(separator: "\n").map { (try? JSONValue(parsing: Array($0.utf8)))?["reportID"]?.stringValue }
        #expect(ids == ["p1", "v1", "p2", "late"])
        #expect(transport.polls <= 1)
    }

    @Test(arguments: [
        (["--collector", "ftp://127.0.0.1:8080", "--token", "t"], "--collector must be an http:// or https:// URL such as http://127.0.0.1:8080"),
        (["--collector", "http://127.0.0.1:8080", "--token", "t", "--format", "xml"], "--format must be ndjson, csv or table"),
        (
            ["--collector", "http://127.0.0.1:8080", "--token", "t", "--since", "yesterday"],
            "--since must be ms since 1970 or an ISO 8601 time such as 2026-11-26T08:00:00Z"
        ),
        (["--collector", "http://127.0.0.1:8080", "--token", "t", "--meta", "campaign"], "--meta must read key=value"),
        (["--collector", "http://127.0.0.1:8080", "--token", "t", "--limit", "0"], "--limit must be at least 1"),
    ])
    func badOptionsAreRefusedSayingWhy(arguments: [String], message: String) {
        #expect {
            _ = try HermesCommand.parseAsRoot(["events"] + arguments)
        } throws: { error in
            HermesCommand.message(for: error) == message
        }
    }
}

/// A platform transport that runs `arrive` once, before the first `GET /v1/events/arrivals`
/// that names `receivedSince` (the first follow poll) goes out, and counts such polls after it.
final class ArrivingTransport: Transport, @unchecked Sendable {
    // Guarded by `lock`: the listing sends one request at a time, but `Transport` is `Sendable`.
    private let lock = NSLock()
    private var arrived = false
    private var laterPolls = 0
    private let inner = PlatformTransport()
    private let arrive: @Sendable () async throws -> Void

    init(arrive: @escaping @Sendable () async throws -> Void) {
        self.arrive = arrive
    }

    /// The follow polls after the first.
    var polls: Int { lock.withLock { laterPolls } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.path.hasSuffix("/arrivals"), request.url.query?.contains("receivedSince=") == true {
            let first = lock.withLock {
                defer { arrived = true }
                if arrived { laterPolls += 1 }
                return !arrived
            }
            if first { try await arrive() }
            guard polls < 100 else { throw RunFailure("the late record never showed") }
        }
        return try await inner.send(request)
    }
}
