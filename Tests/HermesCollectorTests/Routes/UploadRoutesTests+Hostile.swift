import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What a stranger holding the app key can send: each upload is bounded by its namespace's
/// configuration before the work is done, and a hostile record is refused alone.
struct UploadRoutesHostileTests {
    static let v2 = try! CollectorFixture.formats()["v2-gcm"]!

    /// A payload packet of `count` records whose payloads are `payloadBytes` zeros (a few KiB
    /// each once compressed).
    static func zeros(count: Int, payloadBytes: Int) throws -> [UInt8] {
        let lines = try (0..<count).map { try CollectorFixture.metaLine("bomb-\($0)", type: "appCrash") }
        return try v2.encode(
            Packet(kind: .payload, metaLines: lines, payloads: Array(repeating: Array(repeating: 0, count: payloadBytes), count: count)))
    }

    @Test func payloadSlotsThatDecompressPastTheNamespaceLimitAreRefusedWhole() async throws {
        // Given five payloads of 4 MiB of zeros: 20 MiB once opened, for a 3 MiB namespace limit
        let fixture = try CollectorFixture()
        let body = try Self.zeros(count: 5, payloadBytes: 4 << 20)
        #expect(body.count < 200_000)
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .payload, version: 2)
            #expect(response.status == .contentTooLarge)
            #expect(try response.json()["error"] == "packetTooLarge")
        }
        #expect(try await fixture.storedEvents().isEmpty)
    }

    @Test func morePayloadSlotsThanTheNamespaceAllowsAreRefusedBeforeAnyIsOpened() async throws {
        var fixture = try CollectorFixture()
        fixture.configuration.initialConfiguration = ConfigurationDocument(
            revision: 1, namespaces: [CollectorFixture.namespace: NamespaceConfiguration(maxItem: 3)]
        )
        let body = try Self.zeros(count: 4, payloadBytes: 10)
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .payload, version: 2)
            #expect(response.status == .contentTooLarge)
            #expect(try response.json()["error"] == "tooManyRecords")
        }
    }

    @Test func aMetaLineLongerThanTheNamespaceAllowsIsRejectedAlone() async throws {
        var fixture = try CollectorFixture()
        fixture.configuration.initialConfiguration = ConfigurationDocument(
            revision: 1, namespaces: [CollectorFixture.namespace: NamespaceConfiguration(maxMetaKByte: 1)]
        )
        let long = try CollectorFixture.metaLine("long", extra: ["text": .string(String(repeating: "x", count: 2_000))])
        let body = try Self.v2.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("short"), long]))
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .meta, version: 2)
            #expect(response.status == .ok)
            let answer = UploadAnswer(body: Array(response.body.readableBytesView))
            #expect(answer.stored == 1 && answer.rejected.map(\.code) == ["metaTooLarge"] && answer.rejected.map(\.index) == [1])
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["short"])
    }

    @Test(arguments: [RecordField.reportID, RecordField.monitorType])
    func aNULInACheckedFieldRejectsThatRecordAlone(field: String) async throws {
        // Given two records that differ only after a NUL in the field
        let fixture = try CollectorFixture()
        let lines = try ["a", "b"].map { suffix in
            try CollectorFixture.metaLine("r-\(suffix)", extra: [field: .string("same\u{0}\(suffix)")])
        }
        let body = try Self.v2.encode(Packet(kind: .meta, metaLines: lines + [try CollectorFixture.metaLine("clean")]))
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .meta, version: 2)
            #expect(response.status == .ok)
            let answer = UploadAnswer(body: Array(response.body.readableBytesView))
            #expect(answer.rejected.map(\.code) == ["invalidText", "invalidText"])
            #expect(answer.stored == 1)
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["clean"])
    }

    @Test func uploadsPastTheBudgetForBytesInFlightAreAskedToRetry() async throws {
        // Given a budget smaller than what one upload reserves (its body and 3 MiB of output)
        var fixture = try CollectorFixture()
        fixture.configuration.maxBytesInFlight = 1 << 20
        let body = try Self.v2.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("r1")]))
        try await fixture.test { client throws in
            let response = try await client.upload(body, kind: .meta, version: 2)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
            #expect(try response.json()["error"] == "busy")
        }
        #expect(try await fixture.storedEvents().isEmpty)
    }
}
