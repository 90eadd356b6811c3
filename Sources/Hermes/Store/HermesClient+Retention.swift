import GRDB

extension HermesClient {
    /// Deletes the rows of `namespaces` created before `createdBefore` (ms since 1970) from
    /// both tables, after the records queued before the call were stored. The rows count as
    /// ``LossReason/expired`` losses of their namespace.
    /// - Returns: how many rows were deleted.
    /// - Throws: when the store cannot be opened or written.
    package func deleteRecords(in namespaces: [String], createdBefore: Int64) async throws -> Int {
        let deleted = try await writer.perform { store in
            try store.deleteRecords(in: namespaces, createdBefore: createdBefore)
        }
        for (namespace, count) in deleted { ledger.record(count, namespace: namespace, reason: .expired) }
        return deleted.values.reduce(0, +)
    }

    /// Milliseconds since 1970 on the client's wall clock (the one that stamps `CREATE_TIME`).
    package var wallTime: Int64 { configuration.wallClock() }

    /// The clock the client's timers sleep on (a test clock in tests).
    package var timerClock: any Clock<Duration> { configuration.clock }
}

extension RecordStore {
    /// Deletes the rows of `namespaces` created before `createdBefore` from both tables.
    /// - Returns: the rows deleted per namespace (namespaces with none are left out).
    func deleteRecords(in namespaces: [String], createdBefore: Int64) throws -> [String: Int] {
        var deleted: [String: Int] = [:]
        try pool.write { db in
            for namespace in namespaces {
                for table in StoreSchema.Table.allCases {
                    try db.execute(
                        sql: "DELETE FROM \(table.rawValue) WHERE namespace = ? AND created_time < ?",
                        arguments: [namespace, createdBefore])
                    if db.changesCount > 0 { deleted[namespace, default: 0] += db.changesCount }
                }
            }
        }
        for (namespace, count) in deleted { adjustCount(namespace, by: -count) }
        return deleted
    }
}
