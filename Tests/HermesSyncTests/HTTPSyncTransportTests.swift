import Foundation
import HermesCollector
import HermesSync
import HermesWire
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
}
