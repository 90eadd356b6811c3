import Atomics
package import Foundation
package import HermesCollector
package import HermesCollectorPostgres
package import Logging
package import PostgresNIO
package import HermesWire

/// `hermes bench retention`: how long dropping one old day takes on PostgreSQL and how long it
/// holds up the inserts running meanwhile. Each run fills an old day of a fresh database with
/// `rows` records (one `INSERT … SELECT generate_series`), starts `uploaders` clients storing
/// 100-record batches into today through the store, drops the old day through the store's own
/// retention (``PostgresCollectorStorage/removeDays(before:)``) while they run, and records
/// when every insert completed. A run fails unless the day's table is gone and the records the
/// drop reported, PostgreSQL's estimate, are within 10 % of `rows`. The median of `runs` runs.
package struct RetentionBenchmark {
    package var postgresURL: String
    package var rows: Int
    package var uploaders: Int
    package var runs: Int

    package init(postgresURL: String, rows: Int, uploaders: Int, runs: Int) {
        self.postgresURL = postgresURL
        self.rows = rows
        self.uploaders = uploaders
        self.runs = runs
    }

    /// How many inserts complete before the drop starts, and again after it ends, per run.
    private static let insertsAround = 40
    /// The old day's distance from today.
    private static let daysAgo: Int64 = 10

    package func run() async throws -> BenchReport {
        var logger = Logger(label: "hermes.bench")
        logger.logLevel = .error
        var measured: [Run] = []
        for _ in 0..<runs {
            measured.append(
                try await BenchDatabase.withFresh(postgresURL: postgresURL, logger: logger) { location, _ in
                    try await once(location, logger: logger)
                })
        }
        var report = BenchReport()
        report.add("rows", Double(rows), "records in the day dropped")
        report.add("uploaders", Double(uploaders), "clients inserting into today meanwhile")
        report.add("runs", Double(runs), "runs (medians below)")
        report.add("drop_s", median(measured.map(\.dropSeconds)), "seconds to drop the day")
        report.add("insert_stall_ms", median(measured.map(\.stallMilliseconds)), "longest ms with no insert completing while it ran")
        report.add("insert_gap_ms", median(measured.map(\.gapMilliseconds)), "longest ms with no insert completing before it")
        report.add("inserts_during_drop", median(measured.map { Double($0.insertsDuringDrop) }), "inserts that completed while it ran")
        report.add("records_removed", median(measured.map { Double($0.recordsRemoved) }), "records the drop reported (PostgreSQL's estimate)")
        return report
    }

    private struct Run {
        var dropSeconds: Double
        var stallMilliseconds: Double
        var gapMilliseconds: Double
        var insertsDuringDrop: Int
        var recordsRemoved: Int
    }

    private func once(_ location: String, logger: Logger) async throws -> Run {
        var options = PostgresCollectorStorage.Options()
        // A fresh database is created and migrated per run; a loaded machine may take a while.
        options.openTimeout = .seconds(60)
        let storage = try await PostgresCollectorStorage.open(url: location, logger: logger, options: options)
        do {
            let run = try await measure(storage, logger: logger)
            await storage.close()
            return run
        } catch {
            await storage.close()
            throw error
        }
    }

    private func measure(_ storage: PostgresCollectorStorage, logger: Logger) async throws -> Run {
        let now = PostgresCollectorStorage.now()
        let old = DayPartition(day: DayPartition(containing: now).day - Self.daysAgo)
        try await fill(old, storage: storage, logger: logger)
        let clock = ContinuousClock()
        let inserts = InsertLog()
        let (completed, signal) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for uploader in 0..<uploaders {
                group.addTask {
                    // A failed insert ends the stream, so the waits below end too.
                    defer { signal.finish() }
                    var sequence = 0
                    while !inserts.stopped.load(ordering: .relaxed), !Task.isCancelled {
                        _ = try await storage.store(Self.batch(uploader: uploader, sequence: sequence, now: now))
                        let instant = clock.now
                        inserts.completions.withLock { $0.append(instant) }
                        signal.yield()
                        sequence += 1
                    }
                }
            }
            var completions = completed.makeAsyncIterator()
            for _ in 0..<Self.insertsAround { _ = await completions.next() }
            let start = clock.now
            let outcome = try await storage.removeDays(before: old.upperBound)
            let end = clock.now
            for _ in 0..<Self.insertsAround { _ = await completions.next() }
            inserts.stopped.store(true, ordering: .relaxed)
            try await group.waitForAll()
            guard try await !storage.partitions().contains(old) else { throw RunFailure("the old day's table is still there") }
            guard abs(outcome.recordsRemoved - rows) <= rows / 10 else {
                throw RunFailure("the drop estimated \(outcome.recordsRemoved) records removed of \(rows)")
            }
            let times = inserts.completions.withLock { $0 }.sorted()
            return Run(
                dropSeconds: start.duration(to: end).seconds,
                stallMilliseconds: Self.longestGap(in: times, from: start, to: end).seconds * 1000,
                gapMilliseconds: Self.longestGap(in: times.filter { $0 < start }, from: times.first ?? start, to: start).seconds * 1000,
                insertsDuringDrop: times.filter { $0 >= start && $0 <= end }.count,
                recordsRemoved: outcome.recordsRemoved
            )
        }
    }

    /// The longest stretch between `start` and `end` in which no insert completed: between two
    /// consecutive completions (or `start` and the first, or the last and `end`) overlapping it.
    package static func longestGap(in sorted: [ContinuousClock.Instant], from start: ContinuousClock.Instant, to end: ContinuousClock.Instant)
        -> Duration
    {
        let before = sorted.last { $0 <= start } ?? start
        let after = sorted.first { $0 >= end } ?? end
        let inside = [before] + sorted.filter { $0 > start && $0 < end } + [after]
        return zip(inside, inside.dropFirst()).map { $0.duration(to: $1) }.max() ?? .zero
    }

    /// The old day's partition, filled with `rows` records by one statement, then checkpointed.
    private func fill(_ day: DayPartition, storage: PostgresCollectorStorage, logger: Logger) async throws {
        try await storage.createPartition(day)
        let meta =
            #"{"REPORT_ID":"old-0","NAMESPACE":"hermes","MONITOR_TYPE":"appLag","CREATE_TIME":0,"IS_BUSINESS":false,"duration_ms":420,"scene":"FeedViewController","thread":"main"}"#
        try await storage.client.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(day.tableName) (namespace, report_id, monitor_type, create_time, meta, device_id, batch_id, received_at)
                    SELECT 'hermes', 'old-' || g, 'appLag', \(day.lowerBound) + g % \(DayPartition.millisecondsPerDay), '\(meta)',
                           'bench-device', 'fill', \(day.lowerBound)
                    FROM generate_series(1, \(rows)) AS g
                    """), logger: logger)
        // An old day's pages were written out long ago; so are these, before the clock starts
        // (CHECKPOINT needs a superuser or pg_checkpoint: without it they may be written during the drop).
        _ = try? await storage.client.query("CHECKPOINT", logger: logger)
    }

    /// One 100-record batch for today, unique to `uploader` and `sequence`.
    private static func batch(uploader: Int, sequence: Int, now: Int64) -> IngestBatch {
        let records = (0..<100).map { offset in
            let reportID = "live-\(uploader)-\(sequence)-\(offset)"
            let meta = #"{"REPORT_ID":"\#(reportID)","NAMESPACE":"hermes","MONITOR_TYPE":"appLag","CREATE_TIME":\#(now),"IS_BUSINESS":false}"#
            return IngestRecord(
                namespace: CollectorWorkload.namespace, reportID: reportID, monitorType: "appLag", createTime: now, meta: Array(meta.utf8),
                payload: nil)
        }
        return IngestBatch(records: records, deviceID: "bench-device", batchID: "live-\(uploader)-\(sequence)", receivedAt: now)
    }
}

/// When the retention benchmark's inserts completed, and whether they should stop.
private final class InsertLog: Sendable {
    let completions = Locked<[ContinuousClock.Instant]>([])
    let stopped = ManagedAtomic<Bool>(false)
}
