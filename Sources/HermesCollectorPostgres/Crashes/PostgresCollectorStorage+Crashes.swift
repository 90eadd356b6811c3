public import HermesCollector
import Logging
import NIOCore
import PostgresNIO

extension PostgresCollectorStorage {
    /// Groups in one transaction that first tries the advisory lock `crashGroups`:
    /// while another instance's step holds it, this one returns 0 at once. Records are found as
    /// `CrashGroupingBatch` says, so one whose `bigserial` id was handed out before others' but
    /// committed after them is still grouped; the membership key keeps each record counted once.
    public func groupCrashes(limit: Int) async throws -> Int {
        let limit = Int64(max(1, limit))
        return try await PostgresErrors.run("group crashes") {
            try await client.withTransaction(logger: logger) { connection in
                let lock = try await connection.query("SELECT pg_try_advisory_xact_lock(\(PostgresSchema.Lock.crashGroups.rawValue))", logger: logger)
                var held = false
                for try await value in lock.decode(Bool.self) { held = value }
                guard held else { return 0 }
                var progress = CrashGroupingBatch.Cursor(receivedAt: 0, id: 0)
                let recorded = try await connection.query(PostgresQuery(unsafeSQL: CrashGroupQueries.progress), logger: logger)
                for try await (receivedAt, id) in recorded.decode((Int64, Int64).self) {
                    progress = CrashGroupingBatch.Cursor(receivedAt: receivedAt, id: id)
                }
                var after = PostgresBindings(capacity: 3)
                after.append(progress.receivedAt)
                after.append(progress.id)
                after.append(limit)
                var rows = try await Self.crashes(on: connection, CrashGroupQueries.ungrouped(.postgres, caughtUp: false), after, logger: logger)
                if rows.count < limit {
                    var margin = PostgresBindings(capacity: 2)
                    margin.append(progress.marginStart)
                    margin.append(limit)
                    rows = try await Self.crashes(on: connection, CrashGroupQueries.ungrouped(.postgres, caughtUp: true), margin, logger: logger)
                }
                let batch = CrashGroupingBatch(rows, progress: progress)
                guard !batch.members.isEmpty else { return 0 }
                return try await Self.write(batch, on: connection, logger: logger)
            }
        }
    }

    public func crashGroups(since: Int64?, until: Int64?, limit: Int) async throws -> [CrashGroupSummary] {
        let window = CrashGroupQueries.window(since: since, until: until)
        var binds = PostgresBindings(capacity: 3)
        binds.append(window.since)
        binds.append(window.until)
        binds.append(Int64(limit))
        return try await PostgresErrors.run("read crash groups") {
            try await client.withConnection { connection in
                try await Self.summaries(on: connection, sql: CrashGroupQueries.summaries(.postgres, oneGroup: false), binds, logger: logger)
            }
        }
    }

    public func crashGroup(signature: String, since: Int64?, until: Int64?, bucket: Int64) async throws -> CrashGroupDetail? {
        try CrashGroupQueries.checkBucket(bucket)
        let window = CrashGroupQueries.window(since: since, until: until)
        var summaryBinds = PostgresBindings(capacity: 4)
        summaryBinds.append(window.since)
        summaryBinds.append(window.until)
        summaryBinds.append(signature)
        summaryBinds.append(Int64(1))
        var groupBinds = PostgresBindings(capacity: 3)
        groupBinds.append(signature)
        groupBinds.append(window.since)
        groupBinds.append(window.until)
        var bucketBinds = PostgresBindings(capacity: 6)
        for _ in 0..<3 { bucketBinds.append(bucket) }
        bucketBinds.append(signature)
        bucketBinds.append(window.since)
        bucketBinds.append(window.until)
        return try await PostgresErrors.run("read a crash group") {
            try await client.withConnection { connection -> CrashGroupDetail? in
                let summaries = try await Self.summaries(
                    on: connection, sql: CrashGroupQueries.summaries(.postgres, oneGroup: true), summaryBinds, logger: logger)
                guard let summary = summaries.first else { return nil }
                var latest: StoredEvent?
                let events = try await connection.query(
                    PostgresQuery(unsafeSQL: CrashGroupQueries.latest(.postgres), binds: groupBinds), logger: logger)
                for try await row in events.decode(Self.EventRow.self) {
                    latest = try Self.event(row)
                }
                var buckets: [CrashBucket] = []
                let counts = try await connection.query(
                    PostgresQuery(unsafeSQL: CrashGroupQueries.buckets(.postgres), binds: bucketBinds), logger: logger)
                for try await (start, count) in counts.decode((Int64, Int64).self) {
                    buckets.append(CrashBucket(start: start, count: Int(count)))
                }
                return CrashGroupDetail(summary: summary, latest: latest, buckets: buckets)
            }
        }
    }

    /// Writes a step's groups, membership rows and progress in the transaction open on `connection`,
    /// one statement each (arrays through `unnest`).
    /// - Returns: how many membership rows were new.
    private static func write(_ batch: CrashGroupingBatch, on connection: PostgresConnection, logger: Logger) async throws
        -> Int
    {
        var groups = PostgresBindings(capacity: 4)
        groups.append(batch.groups.map(\.signature.digest))
        groups.append(batch.groups.map(\.signature.title))
        groups.append(batch.groups.map { $0.signature.culprit ?? "" })
        groups.append(batch.groups.map(\.firstSeen))
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO crash_groups (signature, title, culprit, first_seen)
                    SELECT g.signature, g.title, NULLIF(g.culprit, ''), g.first_seen
                    FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[]) AS g(signature, title, culprit, first_seen)
                    ON CONFLICT (signature) DO UPDATE SET first_seen = LEAST(crash_groups.first_seen, excluded.first_seen)
                    """, binds: groups), logger: logger)
        var members = PostgresBindings(capacity: 7)
        members.append(batch.members.map(\.namespace))
        members.append(batch.members.map(\.reportID))
        members.append(batch.members.map(\.createTime))
        members.append(batch.members.map(\.signature.digest))
        members.append(batch.members.map { $0.userID ?? "" })
        members.append(batch.members.map { $0.deviceID ?? "" })
        members.append(batch.members.map { $0.appVersion ?? "" })
        let inserted = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    WITH inserted AS (
                        INSERT INTO crash_members (namespace, report_id, create_time, signature, user_id, device_id, app_version)
                        SELECT m.namespace, m.report_id, m.create_time, m.signature, NULLIF(m.user_id, ''), NULLIF(m.device_id, ''),
                               NULLIF(m.app_version, '')
                        FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], $7::text[])
                             AS m(namespace, report_id, create_time, signature, user_id, device_id, app_version)
                        ON CONFLICT DO NOTHING
                        RETURNING 1
                    )
                    SELECT count(*) FROM inserted
                    """, binds: members), logger: logger)
        var grouped = 0
        for try await count in inserted.decode(Int64.self) { grouped = Int(count) }
        var cursor = PostgresBindings(capacity: 4)
        for _ in 0..<2 {
            cursor.append(batch.cursor.receivedAt)
            cursor.append(batch.cursor.id)
        }
        try await connection.query(PostgresQuery(unsafeSQL: CrashGroupQueries.advance(.postgres), binds: cursor), logger: logger)
        return grouped
    }

    /// The records a ``CrashGroupQueries/ungrouped(_:caughtUp:)`` statement answers.
    private static func crashes(
        on connection: PostgresConnection, _ sql: String, _ binds: PostgresBindings, logger: Logger
    ) async throws -> [(member: CrashMember, cursor: CrashGroupingBatch.Cursor)] {
        var crashes: [(member: CrashMember, cursor: CrashGroupingBatch.Cursor)] = []
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        for try await row in rows.decode((String, String, Int64, Int64, Int64, String, ByteBuffer?, String?).self) {
            let member = CrashMember(
                namespace: row.0, reportID: row.1, createTime: row.2, meta: row.5, payload: row.6.map { Array($0.readableBytesView) },
                uploadDeviceID: row.7)
            crashes.append((member, CrashGroupingBatch.Cursor(receivedAt: row.3, id: row.4)))
        }
        return crashes
    }

    /// The summaries a ``CrashGroupQueries/summaries(_:oneGroup:)`` statement answers.
    private static func summaries(
        on connection: PostgresConnection, sql: String, _ binds: PostgresBindings, logger: Logger
    ) async throws -> [CrashGroupSummary] {
        var summaries: [CrashGroupSummary] = []
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        for try await row in rows.decode((String, String, String?, Int64, Int64, Int64, Int64, String?).self) {
            summaries.append(
                CrashGroupSummary(
                    signature: row.0, title: row.1, culprit: row.2, count: Int(row.3), usersAffected: Int(row.4), firstSeen: row.5,
                    lastSeen: row.6, versionsJSON: row.7))
        }
        return summaries
    }
}
