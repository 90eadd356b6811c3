import HermesCollector
import HermesCollectorPostgres
import Logging

/// Where a collector keeps its records: a SQLite file (a path, or `sqlite:PATH`) or a
/// PostgreSQL database (`postgres://…` or `postgresql://…`).
enum StorageLocation: Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    /// The environment variable `serve` reads when neither `--storage` nor `--db` is given.
    static let environmentVariable = "HERMES_STORAGE"

    init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// Opens the store; `close` releases it (PostgreSQL's connections) once the collector stopped.
    func open(logger: Logger) async throws -> (storage: any CollectorStorage, close: @Sendable () async -> Void) {
        switch self {
        case .sqlite(let path):
            return (try SQLiteCollectorStorage(path: path), {})
        case .postgres(let url):
            let storage = try await PostgresCollectorStorage.open(url: url, logger: logger)
            return (storage, { await storage.close() })
        }
    }

    /// Record sync's store in the same place: a SQLite file beside the collector's
    /// (`collector.sqlite` → `collector-sync.sqlite`), or the `sync_` tables of the PostgreSQL database.
    func openSync(logger: Logger) async throws -> (storage: any SyncStorage, close: @Sendable () async -> Void) {
        switch self {
        case .sqlite(let path):
            return (try SQLiteSyncStorage(path: Self.syncPath(besides: path)), {})
        case .postgres(let url):
            let storage = try await PostgresSyncStorage.open(url: url, logger: logger)
            return (storage, { await storage.close() })
        }
    }

    /// The sync database's path beside the collector's database at `path`.
    static func syncPath(besides path: String) -> String {
        path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) + "-sync.sqlite" : path + "-sync"
    }

    /// Opens record sync's store, runs `body` with it, and closes it.
    func withOpenSync<T>(logger: Logger, _ body: (any SyncStorage) async throws -> T) async throws -> T {
        try await withClosing(try await openSync(logger: logger), body)
    }

    /// Opens the store, runs `body` with it, and closes it.
    func withOpen<T>(logger: Logger, _ body: (any CollectorStorage) async throws -> T) async throws -> T {
        try await withClosing(try await open(logger: logger), body)
    }

    /// Runs `body` with an open store, then closes it.
    private func withClosing<Storage, T>(
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
