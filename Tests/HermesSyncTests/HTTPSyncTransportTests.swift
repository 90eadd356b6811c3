import Foundation
import HermesCollector
import HermesSync
import HermesWire
import HermesTransport
import Logging
import Testing

struct HTTPSyncTransportTests {
    @Test func devicesShareRecordsThroughACollectorOnLoopback() async throws {
        let storage = try SQLiteSyncStorage.inMemory()
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(port: 0, appKeys: ["app"], adminToken: "admin", keyring: Keyring([])),
            storage: try SQLiteCollectorStorage.inMemory(),
            sync: SyncServer(storage: storage, rules: SyncRules(schema: TestSchema.v1)),
            logger: Logger(label: "sync.tests") { _ in SwiftLogNoOpLogHandler() }
        )
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        do {
            let first = try SyncClient(path: nil, clientID: "a", schema: TestSchema.v1, transport: HTTPSyncTransport(baseURL: url, appKey: "app"))
            let second = try SyncClient(path: nil, clientID: "b", schema: TestSchema.v1, transport: HTTPSyncTransport(baseURL: url, appKey: "app"))
            let stranger = try SyncClient(
                path: nil, clientID: "c", schema: TestSchema.v1, transport: HTTPSyncTransport(baseURL: url, appKey: "wrong"))
            try first.write { changes in
                let team = try changes.create("teams", ["name": "Blue"])
                try changes.create("players", ["name": "Ada", "team_id": .int(team)])
            }

            #expect(try await first.sync().applied == [1])
            try await second.sync()
            let refused = await #expect(throws: SyncError.self) { try await stranger.sync() }

            #expect(try second.allRecords() == first.allRecords() && first.allRecords().count == 2)
            #expect(refused?.code == .transportFailed)
            try await server.shutdown()
        } catch {
            try await server.shutdown()
            throw error
        }
    }

    /// A transport that passes requests on and keeps what went over the wire.
    final class WireLog: Transport {
        let base = PlatformTransport()
        let exchanges = Locked<[(request: TransportRequest, response: TransportResponse)]>([])

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let response = try await base.send(request)
            exchanges.withLock { $0.append((request, response)) }
            return response
        }
    }

    @Test func bigRequestsAndAnswersGoGzippedOnTheWire() async throws {
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(port: 0, appKeys: ["app"], adminToken: "admin", keyring: Keyring([])),
            storage: try SQLiteCollectorStorage.inMemory(),
            sync: SyncServer(storage: try SQLiteSyncStorage.inMemory(), rules: SyncRules(schema: TestSchema.v1)),
            logger: Logger(label: "sync.tests") { _ in SwiftLogNoOpLogHandler() }
        )
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        let wire = WireLog()
        do {
            // Given a device with 200 players made offline, and a new device
            let first = try SyncClient(path: nil, clientID: "a", schema: TestSchema.v1, transport: HTTPSyncTransport(baseURL: url, appKey: "app"))
            try first.write { changes in
                for index in 0..<200 { try changes.create("players", ["name": .string("player number \(index) of the club")]) }
            }
            let second = try SyncClient(
                path: nil, clientID: "b", schema: TestSchema.v1, transport: HTTPSyncTransport(baseURL: url, appKey: "app", transport: wire))
            try second.write { changes in
                for index in 0..<200 { try changes.create("players", ["name": .string("reserve number \(index) of the club")]) }
            }
            // When both sync, the second through a transport that keeps the bytes on the wire
            try await first.sync()
            try await second.sync()
            // Then its push went gzipped, its answer came gzipped (the first device's 200 players),
            // and it holds the 400 players
            let exchanges = wire.exchanges.withLock { $0 }
            let push = try #require(exchanges.first)
            #expect(push.request.headers["Content-Encoding"] == "gzip" && SyncCompression.isGzip(push.request.body))
            #expect(push.request.headers["Accept-Encoding"] == "gzip")
            #expect(push.response.header("Content-Encoding") == "gzip")
            #expect(SyncCompression.isGzip(push.response.body))
            #expect(try second.records("players").count == 400)
            try await first.sync()
            #expect(try second.allRecords() == first.allRecords())
            try await server.shutdown()
        } catch {
            try await server.shutdown()
            throw error
        }
    }
}
