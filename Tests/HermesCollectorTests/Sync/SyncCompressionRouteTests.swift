import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// `POST /v1/sync` compressed both ways: gzipped requests read within the body limit, answers
/// gzipped when accepted and worth it.
struct SyncCompressionRouteTests {
    /// A request creating `count` notes of 40 characters each, as JSON.
    static func creating(_ count: Int, clientID: String = "ipad-1") -> [UInt8] {
        let ids = (1...count).map { "-\($0)" }
        let attributes = ids.map { "\"\($0)\":{\"text\":\"note \($0) of the long offline afternoon\"}" }.joined(separator: ",")
        return Array(
            """
            {"clientID":"\(clientID)","schemaVersion":1,"maxRevision":0,"changeSets":[{"sequence":1,"types":["notes"],
            "notes":{"create":[\(ids.joined(separator: ","))],"update":[],"delete":[],"attributes":{\(attributes)}}}]}
            """.utf8)
    }

    static func post(_ client: any TestClientProtocol, _ body: [UInt8], headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers: HTTPFields = [.hermesAppKey: CollectorFixture.appKey]
        headers.append(contentsOf: extra)
        return try await client.execute(uri: HermesPath.sync, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    @Test func aGzippedRequestIsAppliedAndABigAnswerComesBackGzippedOnlyWhenAccepted() async throws {
        try await SyncRoutesTests.test { client in
            // Given a push of 100 notes, gzipped
            let push = try await Self.post(client, try Gzip.compress(Self.creating(100)), headers: [.contentEncoding: "gzip"])
            // Then it was applied, and its answer, not asked for gzip, is plain JSON
            #expect(push.status == .ok)
            #expect(push.headers[.contentEncoding] == nil)
            #expect(try SyncAnswer(jsonBytes: Array(buffer: push.body)).outcomes.first?.entries.count == 100)
            // When another device catches up asking for gzip, and a third without
            let catchUp = #"{"clientID":"ipad-2","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#
            let gzipped = try await Self.post(client, Array(catchUp.utf8), headers: [.acceptEncoding: "gzip, deflate"])
            let plain = try await Self.post(client, Array(catchUp.utf8))
            // Then the first answer is gzip on the wire (and says so), the second plain JSON, and both hold the same 100 notes
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.headers[.vary] == "Accept-Encoding")
            #expect(plain.headers[.contentEncoding] == nil)
            let inflated = try Gzip.decompress(Array(buffer: gzipped.body), limit: 1 << 20)
            #expect(inflated == Array(buffer: plain.body))
            #expect(gzipped.body.readableBytes * 3 < plain.body.readableBytes)
            #expect(try SyncAnswer(jsonBytes: inflated).missed.flatMap(\.entries).count == 100)
        }
    }

    @Test func aSmallAnswerGoesPlainEvenWhenGzipIsAccepted() async throws {
        try await SyncRoutesTests.test { client in
            let empty = try await Self.post(
                client, Array(#"{"clientID":"a","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#.utf8), headers: [.acceptEncoding: "gzip"])
            #expect(empty.headers[.contentEncoding] == nil)
            #expect(String(buffer: empty.body) == #"{"changeSets":[],"hasMore":false,"maxRevision":0,"reset":false}"#)
        }
    }

    @Test func aGzipBombOrNotGzipIsRefusedAndNothingApplied() async throws {
        try await SyncRoutesTests.test { client in
            // Given a gzipped body that inflates past the 4 MiB a request body may have, and bytes that are not gzip
            let bomb = try Gzip.compress(Array(repeating: UInt8(ascii: " "), count: 5 << 20) + Self.creating(1))
            let refused = try await Self.post(client, bomb, headers: [.contentEncoding: "gzip"])
            let garbage = try await Self.post(client, Self.creating(1), headers: [.contentEncoding: "gzip"])
            // Then both are refused, saying why, and nothing was applied
            #expect(refused.status == .contentTooLarge)
            #expect(try refused.json()["error"] == "outputTooLarge")
            #expect(garbage.status == .badRequest)
            #expect(try garbage.json()["error"] == "decompressionFailed")
            let after = try await Self.post(client, Array(#"{"clientID":"b","schemaVersion":1,"maxRevision":0,"changeSets":[]}"#.utf8))
            #expect(try SyncAnswer(jsonBytes: Array(buffer: after.body)).maxRevision == 0)
        }
    }

    @Test func acceptEncodingIsReadWithItsQualities() {
        #expect(SyncCompression.accepts("gzip"))
        #expect(SyncCompression.accepts("br, GZIP;q=0.5"))
        #expect(!SyncCompression.accepts("gzip;q=0"))
        #expect(!SyncCompression.accepts("deflate, br"))
        #expect(!SyncCompression.accepts(nil))
        #expect(SyncCompression.isGzip(" gzip "))
        #expect(!SyncCompression.isGzip("identity"))
    }
}
