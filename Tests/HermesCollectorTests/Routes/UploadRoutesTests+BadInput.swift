import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// An upload that must be refused with a 400 and a reason, storing nothing.
struct BadUpload: Sendable, CustomTestStringConvertible {
    var name: String
    var code: String
    var reason: String?
    var scope = "packet"
    var kind: PacketKind = .meta
    var version: UInt8? = 2
    var namespace: String? = CollectorFixture.namespace
    var body: @Sendable () throws -> [UInt8]

    var testDescription: String { name }

    static func gcm(_ packet: Packet) throws -> [UInt8] {
        try WireFormat.v2(try AESGCMCipher(key: CollectorFixture.gcmKey, keyID: CollectorFixture.gcmKeyID)).encode(packet)
    }

    static func gcmMeta(_ lines: [UInt8]...) throws -> [UInt8] {
        try gcm(Packet(kind: .meta, metaLines: lines))
    }

    static func good() throws -> [UInt8] { try CollectorFixture.metaLine("good") }

    static let all: [BadUpload] = [
        BadUpload(name: "truncated packet", code: "truncatedPacket") {
            Array(try gcmMeta(try good(), try CollectorFixture.metaLine("r2")).prefix(20))
        },
        BadUpload(name: "wrong key", code: "authenticationFailed", reason: "AES-GCM authentication failed: wrong key, or the packet was altered") {
            try WireFormat.v2(try AESGCMCipher(key: Array(repeating: 1, count: 32), keyID: CollectorFixture.gcmKeyID))
                .encode(Packet(kind: .meta, metaLines: [try good()]))
        },
        BadUpload(name: "unknown key id", code: "unknownKey") {
            try WireFormat.v2(try AESGCMCipher(key: CollectorFixture.gcmKey, keyID: 99)).encode(Packet(kind: .meta, metaLines: [try good()]))
        },
        BadUpload(name: "bad gzip in a valid v1 block", code: "decompressionFailed", version: 1) {
            try AESCBCCipher(key: CollectorFixture.v1Key, iv: CollectorFixture.v1IV).seal(Array("not gzip at all".utf8), authenticating: [])
        },
        BadUpload(
            name: "no namespace header", code: "missingHeader", reason: "the X-Hermes-Namespace header is required", scope: "request", namespace: nil
        ) {
            try gcmMeta(try good())
        },
        BadUpload(
            name: "unsupported version", code: "unsupportedVersion", reason: "packet version 3 is not supported; this build reads 1 and 2", version: 3
        ) {
            try gcmMeta(try good())
        },
        BadUpload(name: "payload packet at the meta endpoint", code: "inconsistentPacket") {
            try gcm(Packet(kind: .payload, metaLines: [try good()], payloads: [[1]]))
        },
    ]
}

extension UploadRoutesTests {
    @Test(arguments: BadUpload.all)
    func badUploadIsRefusedWithReasonAndTheCollectorKeepsServing(_ bad: BadUpload) async throws {
        let fixture = try CollectorFixture()
        let body = try bad.body()
        let good = try BadUpload.gcmMeta(try CollectorFixture.metaLine("after"))
        try await fixture.test { client throws in
            // When the bad upload arrives
            let response = try await client.upload(body, kind: bad.kind, version: bad.version, namespace: bad.namespace)
            // Then it gets 400 with the code and scope (and the exact reason where pinned)
            #expect(response.status == .badRequest)
            let json = try response.json()
            #expect(json["error"] == .string(bad.code))
            #expect(json["scope"] == .string(bad.scope))
            if let reason = bad.reason {
                #expect(json["reason"] == .string(reason))
            } else {
                #expect(json["reason"]?.stringValue?.isEmpty == false)
            }
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            // And a good upload afterwards is stored
            #expect(try await client.upload(good, kind: .meta, version: 2).json() == ["stored": 1, "duplicates": 0, "rejected": []])
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["after"])
        #expect(fixture.metrics.snapshot.rejects == [bad.code: 1])
    }
}

/// A record of a readable upload that the collector rejects alone, with its code and reason.
struct BadRecord: Sendable, CustomTestStringConvertible {
    var name: String
    var code: String
    var reason: String
    /// The `REPORT_ID` the rejection names, when the line has a readable one.
    var reportID: String?
    var line: @Sendable () throws -> [UInt8]

    var testDescription: String { name }

    static func line(without field: String) throws -> [UInt8] {
        var object = try JSONValue(parsing: CollectorFixture.metaLine("bad")).objectValue ?? [:]
        object[field] = nil
        return try JSONValue.object(object).jsonBytes()
    }

    static let all: [BadRecord] = [
        BadRecord(name: "bad JSON line", code: "invalidJSON", reason: "the meta line is not valid JSON: unexpected end of input at byte 13") {
            Array(#"{"REPORT_ID":"#.utf8)
        },
        BadRecord(name: "meta line not an object", code: "invalidRecord", reason: "the meta line is not a JSON object") { Array("[1,2]".utf8) },
        BadRecord(name: "missing REPORT_ID", code: "missingField", reason: "REPORT_ID is missing") { try line(without: RecordField.reportID) },
        BadRecord(name: "empty REPORT_ID", code: "invalidField", reason: "REPORT_ID is empty") { try CollectorFixture.metaLine("") },
        BadRecord(name: "missing IS_BIZ", code: "missingField", reason: "IS_BIZ is missing", reportID: "bad") {
            try line(without: RecordField.isBusiness)
        },
        BadRecord(name: "CREATE_TIME not an integer", code: "invalidField", reason: "CREATE_TIME must be an integer", reportID: "bad") {
            try CollectorFixture.metaLine("bad", extra: [RecordField.createTime: "soon"])
        },
        BadRecord(
            name: "namespace mismatch", code: "namespaceMismatch", reason: "NAMESPACE differs from the X-Hermes-Namespace header", reportID: "bad"
        ) {
            try CollectorFixture.metaLine("bad", namespace: "other")
        },
    ]
}

extension UploadRoutesTests {
    @Test(arguments: BadRecord.all)
    func aBadRecordIsRejectedAloneAndTheOthersAreStored(_ bad: BadRecord) async throws {
        // Given a payload packet whose middle record is bad
        let fixture = try CollectorFixture()
        let packet = Packet(
            kind: .payload,
            metaLines: [try CollectorFixture.metaLine("first"), try bad.line(), try CollectorFixture.metaLine("last")],
            payloads: [Array("one".utf8), Array("two".utf8), Array("three".utf8)]
        )
        try await fixture.test { client throws in
            // When it is uploaded
            let response = try await client.upload(try BadUpload.gcm(packet), kind: .payload, version: 2)

            // Then the answer is 200, stores the two good ones and names the bad one
            #expect(response.status == .ok)
            var rejection: [String: JSONValue] = ["index": 1, "code": .string(bad.code), "reason": .string(bad.reason)]
            rejection[RecordField.reportID] = bad.reportID.map(JSONValue.string)
            #expect(try response.json() == ["stored": 2, "duplicates": 0, "rejected": [.object(rejection)]])
        }
        let events = try await fixture.storedEvents()
        #expect(events.map(\.reportID) == ["first", "last"])
        #expect(events.map(\.payload) == [Array("one".utf8), Array("three".utf8)])
        #expect(fixture.metrics.snapshot.recordsRejected == [bad.code: 1])
        #expect(fixture.metrics.snapshot.rejects.isEmpty)
    }

    @Test func theDeploymentsRecordRuleRejectsTheRecordsItRefuses() async throws {
        // Given a collector whose rule refuses the type "legacy"
        var fixture = try CollectorFixture()
        fixture.configuration.recordRule = { record, meta in
            record.monitorType == "legacy" && meta["amount"] != nil ? "legacy records are no longer stored" : nil
        }
        let lines = [
            try CollectorFixture.metaLine("keep"), try CollectorFixture.metaLine("drop", type: "legacy", extra: ["amount": 3]),
        ]
        try await fixture.test { client throws in
            // When a batch with one such record arrives, twice
            let body = try BadUpload.gcmMeta(lines[0], lines[1])
            let first = try await client.upload(body, kind: .meta, version: 2)
            let again = try await client.upload(body, kind: .meta, version: 2)

            // Then that record is rejected each time, the other stored once
            let rejection: JSONValue = ["index": 1, "REPORT_ID": "drop", "code": "refusedByRule", "reason": "legacy records are no longer stored"]
            #expect(try first.json() == ["stored": 1, "duplicates": 0, "rejected": [rejection]])
            #expect(try again.json() == ["stored": 0, "duplicates": 1, "rejected": [rejection]])
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["keep"])
    }
}
