package import Foundation
package import Hermes
package import HermesCollector
package import HermesWire
package import Logging

/// The collector's own ingest rate, part of `hermes bench e2e`: pre-encoded 100-record v2 meta
/// batches posted to a fresh file-backed collector on loopback by ``uploaders`` concurrent
/// uploaders, each on its own keep-alive connection (``LoopbackPoster``); the median of ``runs``
/// runs.
///
/// Every request is encoded, and every connection opened, before the clock starts.
package struct CollectorIngestBenchmark {
    /// Records per run, in batches of 100.
    package var records = 100_000
    /// Concurrent uploaders, one connection each.
    package var uploaders = 8
    /// Runs; the median is reported.
    package var runs = 3

    /// The median records stored per second over the runs.
    package func recordsPerSecond(cipher: AESGCMCipher, document: ConfigurationDocument, logger: Logger) async throws -> Double {
        let bodies = try Self.bodies(batches: records / 100, cipher: cipher)
        var rates: [Double] = []
        for _ in 0..<runs {
            rates.append(try await rate(bodies: bodies, cipher: cipher, document: document, logger: logger))
        }
        return median(rates)
    }

    /// One run: a fresh collector and database, every body posted once.
    private func rate(bodies: [[UInt8]], cipher: AESGCMCipher, document: ConfigurationDocument, logger: Logger) async throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-collector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(
                port: 0, appKeys: ["bench"], adminToken: "bench", keyring: Keyring([cipher]), initialConfiguration: document),
            storage: try SQLiteCollectorStorage(path: directory.appendingPathComponent("collector.sqlite").path), logger: logger
        )
        let headers = [HermesHeader.appKey: "bench", HermesHeader.namespace: "hermes", HermesHeader.packetVersion: "2"]
        let requests = bodies.map { LoopbackPoster.request(path: HermesPath.uploadMeta, port: server.port, headers: headers, body: $0) }
        let elapsed = try await Self.post(requests, to: server.port, uploaders: uploaders)
        let stored = server.metrics.snapshot.recordsStored
        try await server.shutdown()
        guard stored == bodies.count * 100 else { throw RunFailure("the collector stored \(stored) of \(bodies.count * 100)") }
        return Double(stored) / elapsed.seconds
    }

    /// Posts every request once from `uploaders` connections, uploader `i` taking requests `i`,
    /// `i + n`, …, each on a thread of its own (blocking calls stay off the concurrency pool the
    /// collector runs on).
    /// - Returns: the time from the first request to the last answer.
    private static func post(_ requests: [[UInt8]], to port: Int, uploaders: Int) async throws -> Duration {
        let posters = try (0..<uploaders).map { _ in try LoopbackPoster(port: port) }
        let shares = (0..<uploaders).map { uploader in stride(from: uploader, to: requests.count, by: uploaders).map { requests[$0] } }
        let clock = ContinuousClock()
        let started = clock.now
        let failures = try await withThrowingTaskGroup(of: String?.self) { group in
            for (poster, mine) in zip(posters, shares) {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread {
                            do {
                                for request in mine {
                                    let status = try poster.post(request)
                                    guard status == 200 else { return continuation.resume(returning: "collector answered \(status)") }
                                }
                                continuation.resume(returning: nil)
                            } catch {
                                continuation.resume(returning: "\(error)")
                            }
                        }.start()
                    }
                }
            }
            return try await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        let elapsed = started.duration(to: clock.now)
        if let failure = failures.first { throw LoopbackPoster.Failure(description: failure) }
        return elapsed
    }

    /// `batches` v2 meta packets of 100 distinct records each, as SDKs make them: `REPORT_ID`s
    /// time-ordered like the SDK's UUIDv7 ids, `CREATE_TIME`s rising.
    private static func bodies(batches: Int, cipher: AESGCMCipher) throws -> [[UInt8]] {
        try (0..<batches).map { batch in
            let lines = try (0..<100).map { offset -> [UInt8] in
                let index = batch * 100 + offset
                var meta = StoreBenchmark.meta(index)
                let sequence = String(index, radix: 16)
                meta[RecordField.reportID] = .string("019ab2c4-5e00-7000-8000-" + String(repeating: "0", count: 12 - sequence.count) + sequence)
                meta[RecordField.namespace] = "hermes"
                meta[RecordField.monitorType] = "appLag"
                meta[RecordField.isBusiness] = false
                meta[RecordField.createTime] = .int(1_763_000_000_000 + Int64(index))
                return try JSONValue.object(meta).jsonBytes()
            }
            return try WireFormat.v2(cipher).encode(Packet(kind: .meta, metaLines: lines))
        }
    }
}
