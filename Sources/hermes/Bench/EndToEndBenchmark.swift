import Foundation
import Hermes
import HermesCollector
import HermesWire
import Logging

/// `hermes bench e2e`: records through the SDK to a collector on loopback — end to end from the
/// first send until the collector stored the last one — and the collector's own ingest rate
/// when the same kind of batches are posted to it directly.
struct EndToEndBenchmark {
    var records = 200_000
    static let namespaces = ["hermes", "JZ", "KX"]

    func run() async throws -> BenchReport {
        var logger = Logger(label: "hermes.bench")
        logger.logLevel = .error
        let cipher = try AESGCMCipher(key: Array(repeating: 9, count: 16), keyID: 1)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let business = NamespaceConfiguration(monitorList: [MonitorItem(type: "appLag")], maxCacheCount: 1_000_000, flushCount: 5_000)
        let document = ConfigurationDocument(revision: 1, namespaces: Dictionary(uniqueKeysWithValues: Self.namespaces.map { ($0, business) }))
        let storage = try SQLiteCollectorStorage(path: directory.appendingPathComponent("collector.sqlite").path)
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(port: 0, appKeys: ["bench"], adminToken: "bench", keyring: Keyring([cipher]), initialConfiguration: document),
            storage: storage, logger: logger
        )
        let base = "http://127.0.0.1:\(server.port)"
        let transport = CountingTransport(URLSessionTransport())
        let client = try HermesClient(
            configuration: .init(
                storageDirectory: directory.appendingPathComponent("app"),
                app: .init(name: "Bench", version: "1.0.0", build: "1"),
                configURL: URL(string: "\(base)/v1/config"),
                credentials: .init(appKey: "bench", wireFormat: .v2(cipher)),
                namespaceDefaults: document.namespaces,
                uploadStartDelay: .seconds(3_600),
                transport: transport
            ),
            logger: logger
        )

        // End to end: send, let the flushCount triggers upload as records arrive, then drain.
        let clock = ContinuousClock()
        let started = clock.now
        client.start()
        for index in 0..<records {
            let namespace = Self.namespaces[index % Self.namespaces.count]
            let meta = StoreBenchmark.meta(index)
            let outcome = namespace == "hermes"
                ? client.send(type: "appLag", meta: meta)
                : client.send(type: "appLag", prefix: namespace, meta: meta)
            precondition(outcome.isAccepted, "bench record rejected: \(outcome)")
        }
        try await client.flush()
        for _ in 0..<50 {
            let summaries = await client.upload()
            if summaries.values.allSatisfy({ $0.outcome == .completed && $0.recordsSent == 0 }) { break }
        }
        let endToEnd = started.duration(to: clock.now)
        await client.shutdown()
        let stored = server.metrics.snapshot.recordsStored
        precondition(stored == records, "the collector stored \(stored) of \(records) records")
        let wireBytes = transport.bytesByNamespace.values.reduce(0, +)
        try await server.shutdown()

        var report = BenchReport()
        report.add("records", Double(records), "records")
        report.add("e2e_records_per_s", Double(records) / endToEnd.seconds, "end to end records/s (send → stored)")
        report.add("collector_records_per_s", try await collectorRate(cipher: cipher, document: document, logger: logger), "collector ingest records/s (median of 3)")
        report.add("collector_uploaders", Double(CollectorIngestBenchmark().uploaders), "collector concurrent uploaders")
        report.add("wire_bytes_per_record", Double(wireBytes) / Double(records), "wire bytes per record")
        return report
    }

    /// The collector's ingest rate with pre-encoded batches: ``CollectorIngestBenchmark``.
    private func collectorRate(cipher: AESGCMCipher, document: ConfigurationDocument, logger: Logger) async throws -> Double {
        try await CollectorIngestBenchmark().recordsPerSecond(cipher: cipher, document: document, logger: logger)
    }
}
