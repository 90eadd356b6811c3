import GRDB

extension SQLiteCollectorStorage {
    /// How many records one erasure transaction removes: the writer is never held long, so
    /// uploads go on between them.
    static let erasureChunk = 2_000

    /// Reads the ids of the subject's records, then removes them in transactions of
    /// `erasureChunk`; the memberships and the device's queue go in the last one.
    public func erase(_ subject: ErasureSubject) async throws -> Int {
        try await withStorageErrors("erase the records of a \(subject.kind)") {
            let ids = try await writer.read { db in
                try Int64.fetchAll(db, sql: "SELECT id FROM events WHERE \(subject.column) = ?", arguments: [subject.id])
            }
            var removed = 0
            for start in stride(from: 0, to: ids.count, by: Self.erasureChunk) {
                let chunk = Array(ids[start..<min(start + Self.erasureChunk, ids.count)])
                removed += try await writer.write { db in
                    try db.execute(
                        sql: "DELETE FROM events WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))", arguments: StatementArguments(chunk))
                    return db.changesCount
                }
            }
            try await writer.write { db in
                for (sql, id) in ErasureQueries.related(subject) { try db.execute(sql: sql, arguments: [id]) }
            }
            return removed
        }
    }
}
