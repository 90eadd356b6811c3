import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct UploadRoutesTests {
    @Test(arguments: ["v1", "v2-gcm", "v2-hpke"])
    func metaBatchIsStoredOncePerRecord(format name: String) async throws {
        let fixture = try CollectorFixture()
        let format = try #require(try CollectorFixture.formats()[name])
        let lines = [try CollectorFixture.metaLine("r1", createTime: 10), try CollectorFixture.metaLine("r2", type: "refund", createTime: 20)]
        let body = try format.encode(Packet(kind: .meta, metaLines: lines))
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .meta, version: format.version)
            #expect(response.status == .ok)
            #expect(try response.json() == ["stored": 2, "duplicates": 0, "rejected": []])
            #expect(response.headers[.hermesBatchAcknowledged] == "batch-1")
        }
        let events = try await fixture.storedEvents()
        #expect(events.map(\.reportID) == ["r1", "r2"])
        #expect(events.map(\.monitorType) == ["order", "refund"])
        #expect(events.map(\.payload) == [nil, nil])
        #expect(events.allSatisfy { $0.namespace == "shop" && $0.deviceID == "device-1" && $0.batchID == "batch-1" })
        #expect(try events[0].meta == JSONValue(parsing: lines[0]))
    }

    @Test(arguments: ["v1", "v2-gcm", "v2-hpke"])
    func payloadBatchIsStoredWithItsPayloads(format name: String) async throws {
        let fixture = try CollectorFixture()
        let format = try #require(try CollectorFixture.formats()[name])
        let packet = Packet(
            kind: .payload,
            metaLines: [try CollectorFixture.metaLine("crash-1", type: "appCrash"), try CollectorFixture.metaLine("crash-2", type: "appCrash")],
            payloads: [Array("0 main SIGSEGV".utf8), []]
        )
        try await fixture.test { client throws in
            let response = try await client.upload(try format.encode(packet), kind: .payload, version: format.version)
            #expect(response.status == .ok)
            #expect(try response.json() == ["stored": 2, "duplicates": 0, "rejected": []])
        }
        let events = try await fixture.storedEvents()
        #expect(events.map(\.reportID) == ["crash-1", "crash-2"])
        #expect(events.map(\.payload) == [Array("0 main SIGSEGV".utf8), nil])
    }

    @Test func eachRecordIsStampedWithTheCollectorsClockAtArrival() async throws {
        var fixture = try CollectorFixture()
        fixture.configuration.wallClock = { 1_765_432_100_000 }
        let v2 = try #require(try CollectorFixture.formats()["v2-gcm"])
        let body = try v2.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("r1", createTime: 10)]))
        try await fixture.test { client throws in
            #expect(try await client.upload(body, kind: .meta, version: v2.version).status == .ok)
        }
        #expect(try await fixture.storedEvents().map(\.receivedAt) == [1_765_432_100_000])
    }

    @Test func versionIsToldByMagicWhenTheHeaderIsAbsent() async throws {
        let fixture = try CollectorFixture()
        let v2 = try #require(try CollectorFixture.formats()["v2-gcm"])
        let v1 = try #require(try CollectorFixture.formats()["v1"])
        try await fixture.test { client throws in
            let first = try await client.upload(try v2.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("a")])), kind: .meta)
            #expect(try first.json() == ["stored": 1, "duplicates": 0, "rejected": []])
            let second = try await client.upload(try v1.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("b")])), kind: .meta)
            #expect(try second.json() == ["stored": 1, "duplicates": 0, "rejected": []])
        }
        #expect(try await fixture.storedEvents().count == 2)
    }

    @Test func resentBatchIsAcknowledgedAndStoredOnce() async throws {
        let fixture = try CollectorFixture()
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let lines = try (1...3).map { try CollectorFixture.metaLine("r\($0)") }
        let body = try format.encode(Packet(kind: .meta, metaLines: lines))
        try await fixture.test { client throws in
            let first = try await client.upload(body, kind: .meta)
            #expect(try first.json() == ["stored": 3, "duplicates": 0, "rejected": []])
            let resent = try await client.upload(body, kind: .meta)
            #expect(resent.status == .ok)
            #expect(try resent.json() == ["stored": 0, "duplicates": 3, "rejected": []])
            // A batch that overlaps the first stores only its new record
            let overlapping = try format.encode(Packet(kind: .meta, metaLines: [lines[2], try CollectorFixture.metaLine("r4")]))
            #expect(try await client.upload(overlapping, kind: .meta).json() == ["stored": 1, "duplicates": 1, "rejected": []])
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["r1", "r2", "r3", "r4"])
    }

    @Test(arguments: [nil, "not-a-known-key"])
    func uploadWithoutAKnownAppKeyIsRefusedAndNothingStored(appKey: String?) async throws {
        let fixture = try CollectorFixture()
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let body = try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("r1")]))
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .meta, appKey: appKey)
            #expect(response.status == .unauthorized)
            #expect(
                try response.json() == [
                    "error": "unauthorized",
                    "reason": "uploads need a known app key in the X-Hermes-App-Key header",
                    "scope": "request",
                ])
        }
        #expect(try await fixture.storedEvents().isEmpty)
    }

    @Test func oversizeBodyIsRefusedWith413() async throws {
        let fixture = try CollectorFixture(maxBodyBytes: 64)
        try await fixture.test { client throws in
            let response = try await client.upload(Array(repeating: 7, count: 65), kind: .meta)
            #expect(response.status == .contentTooLarge)
            #expect(
                try response.json() == [
                    "error": "bodyTooLarge",
                    "reason": "the request body is larger than 64 bytes; send smaller batches",
                    "scope": "request",
                ])
            // Exactly at the limit is read (and refused for what it is, not for its size)
            let atLimit = try await client.upload(Array(repeating: 7, count: 64), kind: .meta, version: 2)
            #expect(atLimit.status == .badRequest)
        }
        #expect(try await fixture.storedEvents().isEmpty)
    }
}
