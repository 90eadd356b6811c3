import Foundation
import GRDB
import Hermes
import HermesWire
import Logging

/// `hermes bench store`: the caller's cost of `send`, durable throughput (first send to
/// `flush()` returning), and a raw GRDB batched insert of the same rows in the same run.
struct StoreBenchmark {
    var calls = 200_000

    static let namespace = "bench"
    static let benchConfiguration = NamespaceConfiguration(
        monitorList: [MonitorItem(type: "appLag")], maxCacheCount: 1_000_000
    )

    func run() async throws -> BenchReport {
        let single = try await measureClient(callers: 1)
        let quad = try await measureClient(callers: 4)
        let raw = try rawInsertRate(rows: calls, metaBytes: single.averageMetaBytes)

        var report = BenchReport()
        report.add("meta_bytes", Double(single.averageMetaBytes), "meta per record (bytes)")
        report.add("send_p50_us", single.percentile(0.50), "send p50, 1 caller (µs)")
        report.add("send_p99_us", single.percentile(0.99), "send p99, 1 caller (µs)")
        report.add("send_p999_us", single.percentile(0.999), "send p99.9, 1 caller (µs)")
        report.add("send4_p50_us", quad.percentile(0.50), "send p50, 4 callers (µs)")
        report.add("send4_p99_us", quad.percentile(0.99), "send p99, 4 callers (µs)")
        report.add("send4_p999_us", quad.percentile(0.999), "send p99.9, 4 callers (µs)")
        report.add("durable_records_per_s", single.durableRate, "durable records/s, 1 caller (send → flush)")
        report.add("durable4_records_per_s", quad.durableRate, "durable records/s, 4 callers")
        report.add("raw_insert_records_per_s", raw, "raw GRDB insert records/s (500/txn)")
        report.add("ratio", single.durableRate / raw, "durable / raw")
        return report
    }

    struct ClientRun {
        var latencies: [Double]  // µs, sorted
        var durableRate: Double
        var averageMetaBytes: Int

        func percentile(_ p: Double) -> Double {
            latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
    }

    private func measureClient(callers: Int) async throws -> ClientRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try HermesClient(
            configuration: .init(
                storageDirectory: directory,
                app: .init(name: "Bench", version: "1.0.0", build: "1"),
                credentials: .init(appKey: "bench", wireFormat: .v2(try AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1))),
                namespaceDefaults: [Self.namespace: Self.benchConfiguration]
            ),
            logger: Logger(label: "hermes.bench")
        )
        let perCaller = calls / callers
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = await runThreads(callers) { caller in
            var latencies: [Double] = []
            latencies.reserveCapacity(perCaller)
            for index in 0..<perCaller {
                let meta = Self.meta(caller * perCaller + index)
                let before = clock.now
                let outcome = client.send(type: "appLag", prefix: Self.namespace, meta: meta)
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
        precondition(rows == perCaller * callers, "expected \(perCaller * callers) rows, found \(rows)")
        let bytes = report.groups.reduce(0) { $0 + $1.bytes }
        return ClientRun(
            latencies: latencies.flatMap { $0 }.sorted(),
            durableRate: Double(rows) / elapsed.seconds,
            averageMetaBytes: bytes / max(rows, 1)
        )
    }

    /// A user meta that makes, with the common fields, a record meta of about 400 bytes.
    static func meta(_ index: Int) -> [String: JSONValue] {
        ["duration_ms": .int(Int64(250 + index % 900)), "scene": "FeedViewController", "thread": "main", "seq": .int(Int64(index))]
    }

    /// Inserts `rows` rows of `metaBytes` bytes into a fresh store-shaped table, 500 per
    /// transaction with a cached statement: what SQLite can do without Hermes around it.
    private func rawInsertRate(rows: Int, metaBytes: Int) throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("raw.sqlite").path)
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE meta (id INTEGER PRIMARY KEY AUTOINCREMENT, report_id TEXT NOT NULL UNIQUE, namespace TEXT NOT NULL,
                    monitor_type TEXT NOT NULL, is_biz INTEGER NOT NULL, created_time INTEGER NOT NULL, app_version TEXT NOT NULL,
                    meta TEXT NOT NULL, size INTEGER NOT NULL, state INTEGER NOT NULL DEFAULT 0, batch_id TEXT, attempts INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX meta_upload ON meta(namespace, state, monitor_type, id);
                CREATE INDEX meta_age ON meta(namespace, created_time);
                """)
        }
        let padding = String(repeating: "x", count: max(0, metaBytes - 60))
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for chunk in stride(from: 0, to: rows, by: 500) {
                try pool.write { db in
                    let insert = try db.cachedStatement(sql: """
                        INSERT INTO meta (report_id, namespace, monitor_type, is_biz, created_time, app_version, meta, size)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                    for index in chunk..<min(chunk + 500, rows) {
                        let meta = "{\"seq\":\(index),\"pad\":\"\(padding)\"}"
                        try insert.execute(arguments: [UUID().uuidString, Self.namespace, "bench-appLag", true, 1_763_000_000_000 + Int64(index), "1.0.0", meta, meta.utf8.count])
                    }
                }
            }
        }
        try pool.close()
        return Double(rows) / elapsed.seconds
    }
}
