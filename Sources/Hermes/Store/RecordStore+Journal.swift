import GRDB

/// Where the writer resumes in one journal segment: every frame before `offset` is in the store.
struct JournalCursor: Sendable, Equatable {
    /// The segment's random identity (see `JournalSegment.identity`).
    var segment: Int64
    var offset: Int
}

extension RecordStore {
    /// The journal cursors saved with earlier commits, by segment identity.
    func journalCursors() throws -> [Int64: Int] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT segment, offset FROM \(StoreSchema.journalCursorTable)")
                .reduce(into: [:]) { $0[$1["segment"] as Int64] = $1["offset"] as Int }
        }
    }

    /// Saves `cursors` and drops the `forgetting` ones, inside the caller's transaction.
    static func save(_ cursors: [JournalCursor], forgetting: [Int64], in db: Database) throws {
        for segment in forgetting {
            try db.execute(sql: "DELETE FROM \(StoreSchema.journalCursorTable) WHERE segment = ?", arguments: [segment])
        }
        guard !cursors.isEmpty else { return }
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO \(StoreSchema.journalCursorTable) (segment, offset) VALUES (?, ?)
                ON CONFLICT(segment) DO UPDATE SET offset = excluded.offset
                """)
        for cursor in cursors { try upsert.execute(arguments: [cursor.segment, cursor.offset]) }
    }
}
