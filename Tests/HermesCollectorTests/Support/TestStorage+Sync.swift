import HermesCollector
import HermesCollectorPostgres

extension TestStorage {
    /// Makes an empty database of `kind`, runs `body` with a record sync store on it (a SQLite
    /// file beside the collector's, or the `sync_` tables of the PostgreSQL database), and removes it.
    static func withSyncStore(_ kind: StorageKind, _ body: (any SyncStorage) async throws -> Void) async throws {
        try await with(kind) { database in
            switch kind {
            case .sqlite:
                try await body(try SQLiteSyncStorage(path: database.location + ".sync"))
            case .postgres:
                let store = try await database.openPostgresSyncStore()
                do {
                    try await body(store)
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        }
    }

    /// A PostgreSQL record sync store on this database, allowed a minute to open: a busy two-core
    /// machine running the whole suite.
    func openPostgresSyncStore() async throws -> PostgresSyncStorage {
        try await PostgresSyncStorage.open(url: location, logger: Self.logger, openTimeout: .seconds(60))
    }
}
