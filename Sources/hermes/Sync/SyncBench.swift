import Foundation
import HermesBenchKit
import HermesCollector
import HermesSync
import HermesWire

/// `hermes sync bench`: a new device catching up on 100,000 records over loopback HTTP, and 50
/// devices pushing 10-record change sets at once.
struct SyncBench {
    static let appKey = "sync-bench"

    let records: Int
    let devices: Int
    let pushes: Int

    func run() async throws -> BenchReport {
        var report = BenchReport()
        report.add("catch_up_100k_s", try await withServer(catchUp), "a new device receives 100,000 records (s, goal ≤ 5)")
        let push = try await withServer(self.push)
        report.add("push_p50_ms", push.p50, "one 10-record change set, \(devices) devices pushing and receiving (ms)")
        report.add("push_p99_ms", push.p99, "  p99 (ms, goal ≤ 25)")
        report.add("change_sets_per_s", push.perSecond, "change sets applied per second")
        return report
    }

    /// Runs `body` against a collector with an empty sync store in a new directory, on loopback.
    private func withServer<T: Sendable>(_ body: (_ device: (String, Int) throws -> SyncClient) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteSyncStorage(path: directory.appendingPathComponent("server.sqlite").path)
        let server = SyncServer(storage: storage, rules: SyncRules(schema: SyncTortureSchema.schema, maximumChangeSets: 1_000))
        let http = try await CollectorServer.start(
            configuration: CollectorConfiguration(port: 0, appKeys: [Self.appKey], adminToken: UUID().uuidString, keyring: Keyring([])),
            storage: try SQLiteCollectorStorage.inMemory(), sync: server, logger: TortureLog.quiet
        )
        let baseURL = URL(string: "http://127.0.0.1:\(http.port)")!
        do {
            let result = try await body { id, maximumChangeSets in
                try SyncClient(
                    path: directory.appendingPathComponent("\(id).sqlite").path, clientID: id, schema: SyncTortureSchema.schema,
                    transport: HTTPSyncTransport(baseURL: baseURL, appKey: Self.appKey), maximumChangeSets: maximumChangeSets
                )
            }
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// One device writes the records (1,000 per change set); a new one receives them.
    /// - Returns: the new device's seconds, scaled to 100,000 records.
    private func catchUp(_ device: (String, Int) throws -> SyncClient) async throws -> Double {
        let writer = try device("writer", 2)
        for batch in stride(from: 0, to: records, by: 1_000) {
            try writer.write { changes in
                for index in batch..<min(records, batch + 1_000) {
                    try changes.create("notes", ["label": .string("note \(index)"), "score": .int(Int64(index)), "flag": .bool(index % 2 == 0)])
                }
            }
        }
        try await writer.sync()
        let reader = try device("reader", 100)
        let elapsed = try await ContinuousClock().measure { _ = try await reader.sync() }
        guard try reader.records("notes").count == records else { throw RunFailure("the new device did not receive every record") }
        return elapsed.seconds * 100_000 / Double(records)
    }

    /// Each device saves a 10-record change set and syncs it (receiving the others' change sets),
    /// `pushes` times, all devices at once.
    private func push(_ device: (String, Int) throws -> SyncClient) async throws -> (p50: Double, p99: Double, perSecond: Double) {
        let clients = try (0..<devices).map { try device("pusher-\($0)", 100) }
        let clock = ContinuousClock()
        let started = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for client in clients {
                group.addTask { [pushes] in
                    var latencies: [Duration] = []
                    for push in 0..<pushes {
                        try client.write { changes in
                            for index in 0..<10 { try changes.create("tags", ["label": .string("tag \(push).\(index)"), "score": .int(Int64(index))]) }
                        }
                        latencies.append(try await clock.measure { _ = try await client.sync() })
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: [Duration]()) { $0 += $1 }
        }.sorted()
        let wall = started.duration(to: clock.now)
        return (
            percentile(0.5, ofSorted: latencies).seconds * 1_000, percentile(0.99, ofSorted: latencies).seconds * 1_000,
            Double(latencies.count) / wall.seconds
        )
    }
}
