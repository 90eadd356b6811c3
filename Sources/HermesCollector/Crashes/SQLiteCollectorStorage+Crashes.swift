import Foundation
import GRDB

extension SQLiteCollectorStorage {
    /// Reads the records to group and computes their signatures in a read (which does not hold up
    /// ingest on a file store), then writes the groups, the membership rows and the progress in
    /// one transaction (see `CrashGroupingBatch` for how no record is passed over). A record
    /// another step grouped meanwhile is left as it is and not counted.
    public func groupCrashes(limit: Int) async throws -> Int {
        let limit = max(1, limit)
        return try await withStorageErrors("group crashes") {
            let batch = try await writer.read { db in
                let progress =
                    try Row.fetchOne(db, sql: CrashGroupQueries.progress).map { CrashGroupingBatch.Cursor(receivedAt: $0[0], id: $0[1]) }
                    ?? CrashGroupingBatch.Cursor(receivedAt: 0, id: 0)
                var rows = try Self.crashes(in: db, CrashGroupQueries.ungrouped(.sqlite, caughtUp: false), [progress.receivedAt, progress.id, limit])
                if rows.count < limit {
                    rows = try Self.crashes(in: db, CrashGroupQueries.ungrouped(.sqlite, caughtUp: true), [progress.marginStart, limit])
                }
                return CrashGroupingBatch(rows, progress: progress)
            }
            guard !batch.members.isEmpty else { return 0 }
            return try await writer.write { db in try Self.write(batch, in: db) }
        }
    }

    public func crashGroups(since: Int64?, until: Int64?, limit: Int) async throws -> [CrashGroupSummary] {
        let window = CrashGroupQueries.window(since: since, until: until)
        return try await withStorageErrors("read crash groups") {
            try await writer.read { db in
                try Self.summaries(in: db, sql: CrashGroupQueries.summaries(.sqlite, oneGroup: false), [window.since, window.until, limit])
            }
        }
    }

    public func crashGroup(signature: String, since: Int64?, until: Int64?, bucket: Int64) async throws -> CrashGroupDetail? {
        try CrashGroupQueries.checkBucket(bucket)
        let window = CrashGroupQueries.window(since: since, until: until)
        return try await withStorageErrors("read a crash group") {
            try await writer.read { db -> CrashGroupDetail? in
                let arguments: StatementArguments = [signature, window.since, window.until]
                let summaries = try Self.summaries(
                    in: db, sql: CrashGroupQueries.summaries(.sqlite, oneGroup: true), [window.since, window.until, signature, 1])
                guard let summary = summaries.first else { return nil }
                let latest = try Row.fetchOne(db, sql: CrashGroupQueries.latest(.sqlite), arguments: arguments).map(Self.event)
                let buckets = try Row.fetchAll(db, sql: CrashGroupQueries.buckets(.sqlite), arguments: [bucket, bucket, bucket] + arguments)
                    .map { CrashBucket(start: $0[0], count: $0[1]) }
                return CrashGroupDetail(summary: summary, latest: latest, buckets: buckets)
            }
        }
    }

    /// Writes a step's groups, membership rows and progress in the transaction open on `db`.
    /// - Returns: how many membership rows were new.
    private static func write(_ batch: CrashGroupingBatch, in db: Database) throws -> Int {
        let group = try db.cachedStatement(
            sql: """
                INSERT INTO crash_groups (signature, title, culprit, first_seen) VALUES (?, ?, ?, ?)
                ON CONFLICT (signature) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen)
                """)
        for entry in batch.groups {
            try group.execute(arguments: [entry.signature.digest, entry.signature.title, entry.signature.culprit, entry.firstSeen])
        }
        let member = try db.cachedStatement(
            sql: """
                INSERT INTO crash_members (namespace, report_id, create_time, signature, user_id, device_id, app_version)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """)
        var grouped = 0
        for row in batch.members {
            try member.execute(
                arguments: [row.namespace, row.reportID, row.createTime, row.signature.digest, row.userID, row.deviceID, row.appVersion])
            grouped += db.changesCount
        }
        let cursor = batch.cursor
        try db.execute(sql: CrashGroupQueries.advance(.sqlite), arguments: [cursor.receivedAt, cursor.id, cursor.receivedAt, cursor.id])
        return grouped
    }

    /// The records a ``CrashGroupQueries/ungrouped(_:caughtUp:)`` statement answers.
    private static func crashes(
        in db: Database, _ sql: String, _ arguments: StatementArguments
    ) throws -> [(member: CrashMember, cursor: CrashGroupingBatch.Cursor)] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let payload: Data? = row[6]
            let member = CrashMember(
                namespace: row[0], reportID: row[1], createTime: row[2], meta: row[5], payload: payload.map { [UInt8]($0) },
                uploadDeviceID: row[7])
            return (member, CrashGroupingBatch.Cursor(receivedAt: row[3], id: row[4]))
        }
    }

    /// The summaries a ``CrashGroupQueries/summaries(_:oneGroup:)`` statement answers.
    private static func summaries(in db: Database, sql: String, _ arguments: StatementArguments) throws -> [CrashGroupSummary] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            CrashGroupSummary(
                signature: row[0], title: row[1], culprit: row[2], count: row[3], usersAffected: row[4], firstSeen: row[5], lastSeen: row[6],
                versionsJSON: row[7])
        }
    }
}
