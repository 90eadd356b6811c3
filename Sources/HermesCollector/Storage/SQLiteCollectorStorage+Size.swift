import GRDB

extension SQLiteCollectorStorage {
    /// The database's pages times the page size (the write-ahead log not included).
    public func storageBytes() async throws -> Int? {
        try await withStorageErrors("read the database size") {
            try await writer.read { db in
                try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
            }
        }
    }
}
