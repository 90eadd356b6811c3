import Foundation
import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

struct ConsoleRecordRoutesTests {
    /// Stores three records of two users, one with a text payload and one with markup in its meta.
    static func fill(_ storage: some CollectorStorage) async throws {
        typealias Records = ConsoleStorageContractTests
        var crash = try Records.record("crash", createTime: 3_000, user: "ann")
        crash.payload = Array("Crashed: SIGILL\n0 App 0x1 main + 4".utf8)
        _ = try await storage.store(
            IngestBatch(
                records: [
                    try Records.record("a", createTime: 1_000, user: "ann", extra: ["query": "<script>alert(1)</script>"]),
                    try Records.record("b", createTime: 2_000, user: "bob"), crash,
                ], deviceID: "dev-1", batchID: "batch", receivedAt: 10_000))
    }

    @Test func theTableFiltersAndTheRecordPageShowsMetaAndPayload() async throws {
        let fixture = try CollectorFixture.console()
        try await Self.fill(fixture.storage)
        try await fixture.test { client in
            let ada = try await ConsoleTestSession.signIn(client, storage: fixture.storage, role: .viewer)
            let all = try await client.console("/console/api/records", session: ada).json()
            #expect(all["records"]?.arrayValue?.map { $0["key"]?.stringValue?.split(separator: "/").first } == ["3000", "2000", "1000"])
            let ann = try await client.console("/console/api/records?user=ann&limit=1", session: ada).json()
            #expect(ann["records"]?.arrayValue?.map { $0["user"] } == ["ann"])
            let next = try #require(ann["next"]?.stringValue)
            let page2 = try await client.console("/console/api/records?user=ann&limit=1&cursor=\(next)", session: ada).json()
            #expect(page2["records"]?[0]?["createTime"] == 1_000)
            #expect(page2["next"] == .null)
            let byMeta = try await client.console("/console/api/records?meta=query%3D%3Cscript%3Ealert(1)%3C%2Fscript%3E", session: ada).json()
            #expect(byMeta["records"]?.arrayValue?.count == 1)
            // The record page: the meta as JSON (markup stays a string), the payload as text and as a download
            let key = try #require(all["records"]?[0]?["key"]?.stringValue)
            let crash = try await client.console("/console/api/records/\(key)", session: ada).json()
            #expect(crash["reportID"] == "crash")
            #expect(crash["payloadText"]?.stringValue?.hasPrefix("Crashed: SIGILL") == true)
            let download = try await client.console("/console/api/records/\(key)/payload", session: ada)
            #expect(download.headers[.contentDisposition] == "attachment; filename=\"crash.payload\"")
            #expect(download.text.hasPrefix("Crashed: SIGILL"))
            let missing = try await client.console("/console/api/records/3000/999999", session: ada)
            #expect(missing.status == .notFound)
            let bad = try await client.console("/console/api/records?limit=9999", session: ada)
            #expect(bad.status == .badRequest)
        }
    }

    @Test func theTailSendsRecordsThatArriveAsServerSentEvents() async throws {
        var fixture = try CollectorFixture.console()
        fixture.configuration.console.tailStreamLifetime = .milliseconds(300)
        fixture.configuration.wallClock = { 9_000 }
        try await Self.fill(fixture.storage)
        try await fixture.test { [storage = fixture.storage] client in
            let ada = try await ConsoleTestSession.signIn(client, storage: storage, role: .viewer)
            let tail = try await client.console("/console/api/tail?user=ann", session: ada)
            #expect(tail.headers[.contentType] == "text/event-stream")
            let events = tail.text.components(separatedBy: "\n\n").filter { $0.contains("event: record") }
            #expect(events.count == 2)
            #expect(events.allSatisfy { $0.contains("id: 10000") && $0.contains("\"user\":\"ann\"") })
            // A browser that reconnects after what it saw gets nothing again
            let again = try await client.console("/console/api/tail?user=ann", session: ada, headers: [HTTPField.Name("Last-Event-ID")!: "10001"])
            #expect(!again.text.contains("event: record"))
        }
    }
}
