package import Foundation
package import GRDB
package import Hermes
package import HermesWire
package import Logging

/// `hermes bench store`: the caller's cost of `send`, durable throughput (first send to
/// `flush()` returning), a raw GRDB insert of the very rows the SDK stored, and the peak
/// resident memory of a burst. Each figure is the median of ``runs`` runs, taken in turn so
/// that a drift of the machine's speed touches them all alike.
package struct StoreBenchmark {
    /// The burst of the crash-proof send issue: 100,000 records, as fast as one or four callers can (a
    /// 200,000-record burst outruns the store by more than the journal's 64 MiB default).
    package var calls = 100_000
    package var runs = 3
    package var burstRecords = 100_000

    package init(calls: Int = 100_000, runs: Int = 3, burstRecords: Int = 100_000) {
        self.calls = calls
        self.runs = runs
        self.burstRecords = burstRecords
    }

    package func run() async throws -> BenchReport {
        var singles: [ClientRun] = []
        var quads: [ClientRun] = []
        var raws: [Double] = []
        var bursts: [BurstMemory] = []
        var rows: [StatementArguments] = []
        for _ in 0..<runs {
            let single = try await measureClient(callers: 1, keepingRows: rows.isEmpty)
            if rows.isEmpty { rows = single.rows }
            singles.append(single)
            quads.append(try await measureClient(callers: 4))
            raws.append(try rawInsertRate(rows))
            bursts.append(try await burstMemory())
        }
        let durable = median(singles.map(\.durableRate))
        let raw = median(raws)

        var report = BenchReport()
        report.add("meta_bytes", Double(singles[0].averageMetaBytes), "meta per record (bytes)")
        report.add("send_p50_us", median(singles.map { $0.percentile(0.50) }), "send p50, 1 caller (µs)")
        report.add("send_p99_us", median(singles.map { $0.percentile(0.99) }), "send p99, 1 caller (µs)")
        report.add("send_p999_us", median(singles.map { $0.percentile(0.999) }), "send p99.9, 1 caller (µs)")
        report.add("send4_p50_us", median(quads.map { $0.percentile(0.50) }), "send p50, 4 callers (µs)")
        report.add("send4_p99_us", median(quads.map { $0.percentile(0.99) }), "send p99, 4 callers (µs)")
        report.add("send4_p999_us", median(quads.map { $0.percentile(0.999) }), "send p99.9, 4 callers (µs)")
        report.add("durable_records_per_s", durable, "durable records/s, 1 caller (send → flush)")
        report.add("durable4_records_per_s", median(quads.map(\.durableRate)), "durable records/s, 4 callers")
        report.add("raw_insert_records_per_s", raw, "raw GRDB insert of the same rows records/s (\(StoreWriter.transactionSize)/txn)")
        report.add("ratio", durable / raw, "durable / raw")
        report.add("peak_rss_mb", median(bursts.map(\.peak)) / 1_048_576, "peak RSS, \(burstRecords / 1000)k-record burst then flush (MB)")
        if bursts.allSatisfy({ $0.start != nil }) {
            report.add("burst_start_rss_mb", median(bursts.map { $0.start! }) / 1_048_576, "  RSS when that burst began (MB)")
        }
        if bursts.allSatisfy({ $0.anonymousAdded != nil }) {
            report.add(
                "burst_anon_added_mb", median(bursts.map { $0.anonymousAdded! }) / 1_048_576,
                "  of the growth, anonymous memory (heap, caches) at flush (MB); the rest is mapped files: code first run, journal")
        }
        return report
    }

    package struct ClientRun {
        package var latencies: [Double]  // µs, sorted
        package var durableRate: Double
        package var averageMetaBytes: Int
        /// The rows the writer stored, as it bound them, when asked for.
        package var rows: [StatementArguments]

        package func percentile(_ p: Double) -> Double {
            HermesHarness.percentile(p, ofSorted: latencies)
        }
    }

    private func measureClient(callers: Int, keepingRows: Bool = false) async throws -> ClientRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try BenchWorkload.client(directory: directory)
        let perCaller = calls / callers
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = await runThreads(callers) { caller in
            var latencies: [Double] = []
            latencies.reserveCapacity(perCaller)
            for index in 0..<perCaller {
                let meta = Self.meta(caller * perCaller + index)
                let before = clock.now
                let outcome = client.send(type: "appLag", prefix: BenchWorkload.namespace, meta: meta)
                let elapsed = before.duration(to: clock.now)
                precondition(outcome.isAccepted, "bench record rejected: \(outcome)")
                latencies.append(Double(elapsed.components.attoseconds) * 1e-12 + Double(elapsed.components.seconds) * 1e6)
            }
            return latencies
        }
        try await client.flush()
        let elapsed = start.duration(to: clock.now)
        await client.shutdown()
        let report = try StoreInspector.inspect(storageDirectory: directory)
        let rows = report.groups.reduce(0) { $0 + $1.rows }
        guard rows == perCaller * callers else { throw RunFailure("expected \(perCaller * callers) rows, found \(rows)") }
        let bytes = report.groups.reduce(0) { $0 + $1.bytes }
        return ClientRun(
            latencies: latencies.flatMap { $0 }.sorted(),
            durableRate: Double(rows) / elapsed.seconds,
            averageMetaBytes: bytes / max(rows, 1),
            rows: keepingRows ? try Self.storedRows(in: directory) : []
        )
    }

    /// A user meta that makes, with the common fields, a record meta of about 400 bytes.
    package static func meta(_ index: Int) -> [String: JSONValue] {
        ["duration_ms": .int(Int64(250 + index % 900)), "scene": "FeedViewController", "thread": "main", "seq": .int(Int64(index))]
    }

    /// The meta rows of the store in `directory`, in insertion order, as the arguments of
    /// ``StoreSchema/insertSQL(into:)``.
    private static func storedRows(in directory: URL) throws -> [StatementArguments] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: directory.appendingPathComponent("hermes.sqlite").path, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT report_id, namespace, monitor_type, is_biz, created_time, app_version, meta, size
                    FROM \(StoreSchema.Table.meta.rawValue) ORDER BY id
                    """
            ).map { StatementArguments($0.databaseValues) }
        }
    }

    /// Inserts `rows` (rows the SDK's writer stored) into a new database made by the store's
    /// own migrator (tables and indexes), with the writer's statement and transaction size,
    /// every argument built before the clock starts: what SQLite does without Hermes around it.
    private func rawInsertRate(_ rows: [StatementArguments]) throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        // As the store's file is created: incremental auto-vacuum before the first table.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
        let pool = try DatabasePool(path: directory.appendingPathComponent("raw.sqlite").path, configuration: configuration)
        try StoreSchema.migrator.migrate(pool)
        let sql = StoreSchema.insertSQL(into: .meta)
        let size = StoreWriter.transactionSize
        let elapsed = try ContinuousClock().measure {
            for start in stride(from: 0, to: rows.count, by: size) {
                try pool.write { db in
                    let insert = try db.cachedStatement(sql: sql)
                    for arguments in rows[start..<min(start + size, rows.count)] {
                        try insert.execute(arguments: arguments)
                    }
                }
            }
        }
        try pool.close()
        return Double(rows.count) / elapsed.seconds
    }

    /// Resident memory of a burst, in bytes.
    package struct BurstMemory {
        /// When the burst began, the client started and settled: the process's baseline (`nil`
        /// where unknown).
        package var start: Double?
        /// The peak from then until `flush()` returned.
        package var peak: Double
        /// The anonymous memory (heap, caches) the burst added by the end, the rest of the
        /// growth being mapped files: code run for the first time, journal segments (`nil` where
        /// unknown).
        package var anonymousAdded: Double?
    }

    /// Runs `hermes-burst-probe` (beside `hermes`; it runs only the SDK, with the harness's
    /// workload): an app-sized process of its own, whose figure neither the CLI's own work (NIO,
    /// the collector) nor the heap the other measurements leave behind can inflate. Its client is
    /// started and done with its start-up work before the burst, as an app's would be.
    private func burstMemory() async throws -> BurstMemory {
        let executable = try ChildProcess.hermesExecutable().deletingLastPathComponent().appendingPathComponent("hermes-burst-probe")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-burst-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--storage", directory.path, "--records", String(burstRecords)]
        let exit = try await onThread { try ChildProcess(executable: executable, arguments: arguments).wait(timeout: .seconds(600)) }
        guard exit.status == 0, let memory = Self.memory(in: exit.lines) else {
            throw RunFailure("the burst process ended with status \(exit.status) and printed no memory figures")
        }
        return memory
    }

    /// The figures of the probe's `rss <start> <peak>` line (a negative start: unknown), and of
    /// its `anon <start> <end>` line when it printed one.
    package static func memory(in lines: [String]) -> BurstMemory? {
        func figures(_ word: String) -> (Double, Double)? {
            for line in lines {
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == word, let first = Double(words[1]), let second = Double(words[2]) else { continue }
                return (first, second)
            }
            return nil
        }
        guard let (start, peak) = figures("rss") else { return nil }
        return BurstMemory(start: start < 0 ? nil : start, peak: peak, anonymousAdded: figures("anon").map { $0.1 - $0.0 })
    }
}
