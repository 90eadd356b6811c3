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

    /// Opens the store, runs `body` with it, and closes it.
    func withOpen<T>(logger: Logger, _ body: (any CollectorStorage) async throws -> T) async throws -> T {
        let (storage, close) = try await open(logger: logger)
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
