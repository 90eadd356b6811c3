public import HermesCollector
public import Logging

extension StorageLocation {
    /// Opens the collector's store; `close` releases it (PostgreSQL's connections) once the
    /// collector stopped.
    /// - Throws: when the SQLite file cannot be opened or the PostgreSQL server not reached.
    public func open(logger: Logger) async throws -> (storage: any CollectorStorage, close: @Sendable () async -> Void) {
        switch self {
        case .sqlite(let path):
            return (try SQLiteCollectorStorage(path: path), {})
        case .postgres(let url):
            let storage = try await PostgresCollectorStorage.open(url: url, logger: logger)
            return (storage, { await storage.close() })
        }
    }

    /// Opens record sync's store in the same place: a SQLite file beside the collector's
    /// (``StorageLocation/syncPath(besides:)``), or the `sync_` tables of the PostgreSQL database.
    /// - Throws: as ``open(logger:)``.
    public func openSync(logger: Logger) async throws -> (storage: any SyncStorage, close: @Sendable () async -> Void) {
        switch self {
        case .sqlite(let path):
            return (try SQLiteSyncStorage(path: Self.syncPath(besides: path)), {})
        case .postgres(let url):
            let storage = try await PostgresSyncStorage.open(url: url, logger: logger)
            return (storage, { await storage.close() })
        }
    }

    /// Opens the collector's store, runs `body` with it, and closes it however `body` ends.
    public func withOpen<T>(logger: Logger, _ body: (any CollectorStorage) async throws -> T) async throws -> T {
        try await Self.withClosing(try await open(logger: logger), body)
    }

    /// Opens record sync's store, runs `body` with it, and closes it however `body` ends.
    public func withOpenSync<T>(logger: Logger, _ body: (any SyncStorage) async throws -> T) async throws -> T {
        try await Self.withClosing(try await openSync(logger: logger), body)
    }

    private static func withClosing<Storage, T>(
        _ opened: (storage: Storage, close: @Sendable () async -> Void), _ body: (Storage) async throws -> T
    ) async throws -> T {
        let (storage, close) = opened
        do {
            let value = try await body(storage)
            await close()
            return value
        } catch {
            await close()
            throw error
        }
    }
}
