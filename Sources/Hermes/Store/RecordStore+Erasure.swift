import GRDB

extension RecordStore {
    /// Deletes every row of both tables with SQLite's `secure_delete` on (the deleted content is
    /// overwritten with zeros in the file), then truncates the write-ahead log so that no copy
    /// of the rows stays there either.
    /// - Returns: the rows deleted, per namespace.
    func eraseAll() throws -> [String: Int] {
        let erased = counts.filter { $0.value > 0 }
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            defer { try? db.execute(sql: "PRAGMA secure_delete = \(RecordStore.secureDelete)") }
            try db.inTransaction {
                for table in StoreSchema.Table.allCases {
                    try db.execute(sql: "DELETE FROM \(table.rawValue)")
                }
                return .commit
            }
            // A reader holding an old snapshot can keep the log from being truncated; the next
            // checkpoint overwrites it then.
            _ = try? db.checkpoint(.truncate)
        }
        for namespace in erased.keys { adjustCount(namespace, by: -(counts[namespace] ?? 0)) }
        inFlight = [:]
        return erased
    }
}
