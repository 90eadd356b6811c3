package import Foundation
package import Hermes
package import HermesCollector
package import HermesWire
package import Logging

/// `hermes bench e2e`: delivery from an app to a collector on loopback, each end with its own
/// file-backed store. The app is `hermes-burst-probe`, a process that runs only the SDK, so its
/// CPU time and resident memory are the SDK's (it posts with the default `PlatformTransport`):
/// it sends `records` events as fast as it can, in bursts of at most ``burst`` each flushed, and
/// the clock runs from its first `send` until the collector acknowledged (and so committed) the
/// last record. Also the collector's own ingest rate when batches are posted to it directly.
package struct EndToEndBenchmark {
    package var records = 100_000
    package var runs = 3
    /// Also deliver through a ``SplitAnswerFront`` (each answer's head and body in two writes,
    /// Nagle on), and report that rate beside the direct one.
    package var splitAnswers = false

    package init(records: Int = 100_000, runs: Int = 3, splitAnswers: Bool = false) {
        self.records = records
        self.runs = runs
        self.splitAnswers = splitAnswers
    }

    /// The most records the app sends before it flushes: a burst of more outruns the store by
    /// more than the journal holds (``StoreBenchmark/burstRecords``).
    static let burst = 100_000

    /// What one delivery run measured.
    private struct Delivery {
        var seconds: Double
        var cpuSeconds: Double
        var bytes: Double
        var rttP50: Double
        var rttP99: Double
        /// From the first `send` to the first upload leaving the app.
        var firstUploadMilliseconds: Double
        var memory: StoreBenchmark.BurstMemory
        /// The app's write calls and the bytes they passed (`nil` where the system does not
        /// count them).
        var writes: (calls: Double, bytes: Double)?
    }

    package func run() async throws -> BenchReport {
        var logger = Logger(label: "hermes.bench")
        logger.logLevel = .error
        let cipher = try BenchWorkload.cipher()
        let document = ConfigurationDocument(
            revision: 1,
            namespaces: [
                BenchWorkload.namespace: BenchWorkload.configuration, "hermes": BenchWorkload.configuration,
            ])
        var deliveries: [Delivery] = []
        var split: [Delivery] = []
        for _ in 0..<runs {
            deliveries.append(try await deliver(cipher: cipher, document: document, logger: logger))
            if splitAnswers { split.append(try await deliver(cipher: cipher, document: document, logger: logger, splitAnswers: true)) }
        }
        let count = Double(records)

        var report = BenchReport()
        report.add("records", count, "records per run (median of \(runs) runs)")
        report.add(
            "e2e_records_per_s", median(deliveries.map { count / $0.seconds }),
            "end to end records/s (first send → stored at the collector; the app posts with PlatformTransport: \(Self.transportName))")
        report.add("sdk_cpu_us_per_record", median(deliveries.map { $0.cpuSeconds / count * 1e6 }), "SDK CPU per record: send, store, upload (µs)")
        if splitAnswers {
            let direct = median(deliveries.map { count / $0.seconds }), through = median(split.map { count / $0.seconds })
            report.add("split_answers_records_per_s", through, "  the same through a front that splits each answer's head and body, Nagle on")
            report.add("split_answers_ratio", through / direct, "  that over the direct rate (goal ≥ 0.7)")
            report.add("split_answers_rtt_p50_ms", median(split.map(\.rttP50)), "  one upload's round trip p50 through it (ms)")
        }
        report.add("upload_rtt_p50_ms", median(deliveries.map(\.rttP50)), "one 100-record upload's round trip p50 (ms)")
        report.add("upload_rtt_p99_ms", median(deliveries.map(\.rttP99)), "one 100-record upload's round trip p99 (ms)")
        report.add("first_upload_ms", median(deliveries.map(\.firstUploadMilliseconds)), "from the first send to the first upload (ms)")
        report.add("peak_rss_mb", median(deliveries.map(\.memory.peak)) / 1_048_576, "the app's peak RSS while delivering (MB)")
        report.add("wire_bytes_per_record", median(deliveries.map { $0.bytes / count }), "wire bytes per record")
        let writes = deliveries.compactMap(\.writes)
        if writes.count == deliveries.count {
            report.add(
                "app_written_bytes_per_record", median(writes.map { $0.bytes / count }),
                "bytes the app passed to write calls per record (store, its WAL and temporary files, journal set-up, sockets)")
            report.add("app_write_calls_per_record", median(writes.map { $0.calls / count }), "the app's write calls per record")
        }
        report.add(
            "collector_records_per_s", try await collectorRate(cipher: cipher, document: document, logger: logger),
            "collector ingest records/s (8 uploaders, median of 3)")
        report.add("collector_uploaders", Double(CollectorIngestBenchmark().uploaders), "collector concurrent uploaders")
        return report
    }

    /// One run: a fresh collector with a SQLite file, and the probe app delivering to it.
    private func deliver(
        cipher: AESGCMCipher, document: ConfigurationDocument, logger: Logger, splitAnswers: Bool = false
    ) async throws -> Delivery {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(
                port: 0, appKeys: [BenchWorkload.appKey], adminToken: "bench", keyring: Keyring([cipher]), initialConfiguration: document),
            storage: try SQLiteCollectorStorage(path: directory.appendingPathComponent("collector.sqlite").path), logger: logger
        )
        let front = splitAnswers ? try SplitAnswerFront.start(backend: server.port) : nil
        let executable = try ChildProcess.hermesExecutable().deletingLastPathComponent().appendingPathComponent("hermes-burst-probe")
        let arguments = [
            "--storage", directory.appendingPathComponent("app").path, "--records", String(records), "--burst", String(Self.burst),
            "--collector", "http://127.0.0.1:\(front?.port ?? server.port)",
        ]
        let exit = try await onThread { try ChildProcess(executable: executable, arguments: arguments).wait(timeout: .seconds(600)) }
        front?.stop()
        let stored = server.metrics.snapshot.recordsStored
        try await server.shutdown()
        guard exit.status == 0, let memory = StoreBenchmark.memory(in: exit.lines),
            let delivery = Self.figures("delivery", in: exit.lines), let rtt = Self.figures("rtt", in: exit.lines),
            delivery.count == 3, rtt.count == 3
        else {
            throw RunFailure("the app process ended with status \(exit.status): \(exit.lines.suffix(5).joined(separator: " / "))")
        }
        guard stored == records else { throw RunFailure("the collector stored \(stored) of \(records) records") }
        let writes = Self.figures("io", in: exit.lines).flatMap { $0.count == 2 ? (calls: $0[0], bytes: $0[1]) : nil }
        return Delivery(
            seconds: delivery[0], cpuSeconds: delivery[1], bytes: delivery[2], rttP50: rtt[0], rttP99: rtt[1], firstUploadMilliseconds: rtt[2],
            memory: memory, writes: writes)
    }

    /// What `PlatformTransport` posts the app's uploads with on this platform.
    private static var transportName: String {
        #if os(Linux)
        "SocketHTTPTransport, plain HTTP/1.1 over kept-alive sockets"
        #else
        "URLSessionTransport"
        #endif
    }

    /// The numbers of the probe's line that starts with `word`.
    private static func figures(_ word: String, in lines: [String]) -> [Double]? {
        for line in lines {
            let words = line.split(separator: " ")
            guard words.first.map(String.init) == word else { continue }
            return words.dropFirst().compactMap { Double($0) }
        }
        return nil
    }

    /// The collector's ingest rate with pre-encoded batches: ``CollectorIngestBenchmark``.
    private func collectorRate(cipher: AESGCMCipher, document: ConfigurationDocument, logger: Logger) async throws -> Double {
        try await CollectorIngestBenchmark().recordsPerSecond(cipher: cipher, document: document, logger: logger)
    }
}
