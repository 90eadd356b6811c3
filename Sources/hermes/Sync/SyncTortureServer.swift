import Foundation
import HermesCollector
import HermesWire
import Synchronization

/// The sync torture's server: one SQLite store, reached in process through the fault layer
/// (``SyncServerSwitch``) and over loopback HTTP by the device processes; it can restart (the
/// store closed and opened again from its file, the HTTP server on a new port).
final class SyncTortureServer: Sendable {
    static let appKey = "sync-torture"
    static let rules = SyncRules(schema: SyncTortureSchema.schema, pageRecords: 300, maximumChangeSets: 50)

    let path: String
    let switchboard: SyncServerSwitch
    private let state: Mutex<(storage: SQLiteSyncStorage, http: CollectorServer?)>

    private init(path: String, switchboard: SyncServerSwitch, storage: SQLiteSyncStorage, http: CollectorServer?) {
        self.path = path
        self.switchboard = switchboard
        state = Mutex((storage, http))
    }

    static func start(path: String, dropRate: Double, seed: UInt64) async throws -> SyncTortureServer {
        let storage = try SQLiteSyncStorage(path: path)
        let server = SyncServer(storage: storage, rules: rules)
        let http = try await startHTTP(server)
        return SyncTortureServer(path: path, switchboard: SyncServerSwitch(server: server, dropRate: dropRate, seed: seed), storage: storage, http: http)
    }

    /// The HTTP server's port (0 while it restarts).
    var port: Int { state.withLock { $0.http?.port ?? 0 } }
    /// The store.
    var storage: SQLiteSyncStorage { state.withLock { $0.storage } }

    /// Stops both ways in, opens the store again from its file, and starts them again.
    func restart() async throws {
        switchboard.set(nil)
        await stop()
        let storage = try SQLiteSyncStorage(path: path)
        let server = SyncServer(storage: storage, rules: Self.rules)
        let http = try await Self.startHTTP(server)
        state.withLock { state in
            state.storage = storage
            state.http = http
        }
        switchboard.set(server)
    }

    /// Restarts the server once `seconds` have passed.
    func restart(after seconds: Double) async throws {
        try? await Task.sleep(for: .seconds(seconds))
        try await restart()
    }

    /// Stops the HTTP server.
    func stop() async {
        let http = state.withLock { state in
            defer { state.http = nil }
            return state.http
        }
        try? await http?.shutdown()
    }

    private static func startHTTP(_ server: SyncServer) async throws -> CollectorServer {
        try await CollectorServer.start(
            configuration: CollectorConfiguration(port: 0, appKeys: [appKey], adminToken: UUID().uuidString, keyring: Keyring([])),
            storage: try SQLiteCollectorStorage.inMemory(), sync: server, logger: TortureLog.quiet
        )
    }
}
