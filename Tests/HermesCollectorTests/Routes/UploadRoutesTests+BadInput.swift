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
        BadUpload(name: "bad JSON line", code: "invalidJSON") {
            try gcmMeta(try good(), Array(#"{"REPORT_ID":"#.utf8))
        },
        BadUpload(name: "meta line not an object", code: "invalidRecord", reason: "record 0: the meta line is not a JSON object") {
            try gcmMeta(Array("[1,2]".utf8))
        },
        BadUpload(name: "missing REPORT_ID", code: "missingField", reason: "record 1: REPORT_ID is missing") {
            try gcmMeta(try good(), try JSONValue.object([
                RecordField.namespace: "shop", RecordField.monitorType: "order", RecordField.createTime: 5,
            ]).jsonBytes())
        },
        BadUpload(name: "empty REPORT_ID", code: "invalidField", reason: "record 0: REPORT_ID is empty") {
            try gcmMeta(try CollectorFixture.metaLine(""))
        },
        BadUpload(name: "CREATE_TIME not an integer", code: "invalidField", reason: "record 0: CREATE_TIME must be an integer") {
            try gcmMeta(try JSONValue.object([
                RecordField.reportID: "r1", RecordField.namespace: "shop", RecordField.monitorType: "order", RecordField.createTime: "soon",
            ]).jsonBytes())
        },
        BadUpload(name: "namespace mismatch", code: "namespaceMismatch", reason: "record 1: NAMESPACE differs from the X-Hermes-Namespace header") {
            try gcmMeta(try good(), try CollectorFixture.metaLine("r2", namespace: "other"))
        },
        BadUpload(name: "no namespace header", code: "missingHeader", reason: "the X-Hermes-Namespace header is required", namespace: nil) {
            try gcmMeta(try good())
        },
        BadUpload(name: "unsupported version", code: "unsupportedVersion", reason: "packet version 3 is not supported; this build reads 1 and 2", version: 3) {
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
            // Then it gets 400 with the code (and the exact reason where pinned)
            #expect(response.status == .badRequest)
            let json = try response.json()
            #expect(json["error"] == .string(bad.code))
            if let reason = bad.reason {
                #expect(json["reason"] == .string(reason))
            } else {
                #expect(json["reason"]?.stringValue?.isEmpty == false)
            }
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            // And a good upload afterwards is stored
            #expect(try await client.upload(good, kind: .meta, version: 2).json() == ["stored": 1, "duplicates": 0])
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["after"])
        #expect(fixture.metrics.snapshot.rejects == [bad.code: 1])
    }
}
