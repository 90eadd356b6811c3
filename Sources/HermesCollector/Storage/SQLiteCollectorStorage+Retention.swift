import GRDB

extension SQLiteCollectorStorage {
    /// Deletes the old days one at a time, oldest first, each in its own transaction, so that a
    /// large backlog never holds the writer for long. The crash groups' membership rows of those
    /// days go with their records (the groups stay), and so do the console's rollups of them.
    public func removeDays(before cutoff: Int64) async throws -> RetentionOutcome {
        let end = UTCDay.start(of: cutoff)
        return try await withStorageErrors("remove old days") {
            var removed = 0
            while let oldest = try await writer.read({ db in try Int64.fetchOne(db, sql: "SELECT MIN(create_time) FROM events") }), oldest < end {
                let dayEnd = min(UTCDay.start(of: oldest) + UTCDay.milliseconds, end)
                removed += try await writer.write { db in
                    try db.execute(sql: "DELETE FROM events WHERE create_time < ?", arguments: [dayEnd])
                    let records = db.changesCount
                    try db.execute(sql: "DELETE FROM crash_members WHERE create_time < ?", arguments: [dayEnd])
                    return records
                }
            }
            try await writer.write { db in
                for (sql, bound) in ConsoleSchema.removeRollups(before: end) { try db.execute(sql: sql, arguments: [bound]) }
            }
            return RetentionOutcome(daysDropped: 0, recordsRemoved: removed)
        }
    }
}
