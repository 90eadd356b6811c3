import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Hummingbird
import NIOCore
import Testing

/// The real `URLSessionTransport` uploading to a small HTTP collector on 127.0.0.1.
struct URLSessionUploadTests {
    @Test func recordsReachALoopbackCollectorAndLeaveTheStore() async throws {
        // Given a server on a free loopback port that decodes each packet and acknowledges it
        let decoder = PacketDecoder(keyring: Keyring([try AESGCMCipher(key: FakeCollector.key, keyID: 1)]))
        let received = Locked<[String: [String]]>([:])
        let router = Router()
        for kind in [PacketKind.meta, .payload] {
            router.post(RouterPath(HermesPath.upload(kind))) { request, _ -> Response in
                let body = try await request.body.collect(upTo: 4 << 20)
                let packet = try decoder.decode(Array(buffer: body), kind: kind).packet
                for line in packet.metaLines {
                    let meta = try JSONValue(parsing: line)
                    let namespace = meta[RecordField.namespace]?.stringValue ?? ""
                    received.withLock { $0[namespace, default: []].append(meta[RecordField.reportID]?.stringValue ?? "") }
                }
                let batchID = request.headers[.init(HermesHeader.batchID)!] ?? ""
                return Response(status: .ok, headers: [.init(HermesHeader.batchAcknowledged)!: batchID])
            }
        }
        try await withLoopbackServer(router) { port in
            // When a client with the real transport stores records and uploads
            let harness = Harness()
            var configuration = harness.configuration(defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], transport: URLSessionTransport())
            configuration.collectorURL = URL(string: "http://127.0.0.1:\(port)")
            let client = try HermesClient(configuration: configuration)
            client.start()
            let hermesIDs = [
                client.send(type: "appCrash", meta: ["signal": "SIGSEGV"], payload: Data(repeating: 0x41, count: 3_000)).reportID,
                client.send(type: "appLag", meta: ["ms": 420]).reportID,
            ].compactMap { $0 }
            let jzIDs = [client.send(type: "pay", prefix: "JZ", meta: ["amount": 12]).reportID].compactMap { $0 }
            try await client.flush()
            let summaries = await client.upload()
            let left = try await client.writer.perform { store in
                try store.pool.read { try Int.fetchOne($0, sql: "SELECT (SELECT COUNT(*) FROM meta) + (SELECT COUNT(*) FROM payload)") }
            }
            await client.shutdown()

            // Then the server decoded every record and the store is empty
            #expect(summaries.mapValues(\.outcome) == ["hermes": .completed, "JZ": .completed])
            #expect(Set(received.withLock { $0["hermes"] ?? [] }) == Set(hermesIDs))
            #expect(received.withLock { $0["JZ"] } == jzIDs)
            #expect(hermesIDs.count == 2 && jzIDs.count == 1)
            #expect(left == 0)
        }
    }
}
