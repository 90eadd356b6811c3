package import Foundation
package import HermesCollector
package import HermesCollectorPostgres
package import HermesWire

/// The sync torture's server: one sync store (a SQLite file, or a PostgreSQL database; see
/// ``StorageLocation/openSync(logger:)``), reached in process through the fault layer
/// (``SyncServerSwitch``) and over loopback HTTP by the device processes; it can restart (the
/// store closed and opened again, the HTTP server on a new port), with a new schema version.
package final class SyncTortureServer: Sendable {
    package static let appKey = "sync-torture"
    /// The server's rules over `schema`, guarded (``SyncTortureSchema/guarded(_:)``); every
    /// device needs a credential.
    package static func rules(_ schema: SyncSchema) -> SyncRules {
        SyncRules(schema: SyncTortureSchema.guarded(schema), pageRecords: 300, maximumChangeSets: 50, requireCredentials: true)
    }

    private struct Running {
        var storage: any SyncStorage
        var close: @Sendable () async -> Void
        var http: CollectorServer?
    }

    package let location: StorageLocation
    package let switchboard: SyncServerSwitch
    private let state: Locked<Running>

    private init(location: StorageLocation, switchboard: SyncServerSwitch, running: Running) {
        self.location = location
        self.switchboard = switchboard
        state = Locked(running)
    }

    package static func start(location: StorageLocation, dropRate: Double, seed: UInt64) async throws -> SyncTortureServer {
        let (server, running) = try await open(location, schema: SyncTortureSchema.schema)
        return SyncTortureServer(location: location, switchboard: SyncServerSwitch(server: server, dropRate: dropRate, seed: seed), running: running)
    }

    /// The HTTP server's port (0 while it restarts).
    package var port: Int { state.withLock { $0.http?.port ?? 0 } }
    /// The store.
    package var storage: any SyncStorage { state.withLock { $0.storage } }

    /// Stops both ways in, closes the store and opens it again, and starts them again serving `schema`.
    package func restart(schema: SyncSchema) async throws {
        switchboard.set(nil)
        await stop()
        await state.withLock { $0.close }()
        let (server, running) = try await Self.open(location, schema: schema)
        state.withLock { $0 = running }
        switchboard.set(server)
    }

    /// Restarts the server once `seconds` have passed, serving `schema` from then on.
    package func restart(after seconds: Double, schema: SyncSchema) async throws {
        try? await Task.sleep(for: .seconds(seconds))
        try await restart(schema: schema)
    }

    /// Stops the HTTP server; the store stays open (for the audit) until ``close()``.
    package func stop() async {
        let http = state.withLock { state in
            defer { state.http = nil }
            return state.http
        }
        try? await http?.shutdown()
    }

    /// Stops the HTTP server and closes the store.
    package func close() async {
        await stop()
        await state.withLock { $0.close }()
    }

    private static func open(_ location: StorageLocation, schema: SyncSchema) async throws -> (SyncServer, Running) {
        let (storage, close) = try await location.openSync(logger: TortureLog.quiet)
        let server = SyncServer(storage: storage, rules: rules(schema))
        do {
            let http = try await CollectorServer.start(
                configuration: CollectorConfiguration(port: 0, appKeys: [appKey], adminToken: UUID().uuidString, keyring: Keyring([])),
                storage: try SQLiteCollectorStorage.inMemory(), sync: server, logger: TortureLog.quiet
            )
            return (server, Running(storage: storage, close: close, http: http))
        } catch {
            await close()
            throw error
        }
    }
}
