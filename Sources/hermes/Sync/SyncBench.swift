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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteSyncStorage(path: directory.appendingPathComponent("server.sqlite").path)
        let server = SyncServer(storage: storage, rules: SyncRules(schema: SyncTortureSchema.schema, maximumChangeSets: 1_000))
        let http = try await CollectorServer.start(
            configuration: CollectorConfiguration(port: 0, appKeys: [Self.appKey], adminToken: UUID().uuidString, keyring: Keyring([])),
            storage: try SQLiteCollectorStorage.inMemory(), sync: server, logger: TortureLog.quiet
        )
        do {
            let report = try await measure(URL(string: "http://127.0.0.1:\(http.port)")!, directory: directory)
            try await http.shutdown()
            return report
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func measure(_ baseURL: URL, directory: URL) async throws -> BenchReport {
        func device(_ id: String, maximumChangeSets: Int = 100) throws -> SyncClient {
            try SyncClient(
                path: directory.appendingPathComponent("\(id).sqlite").path, clientID: id, schema: SyncTortureSchema.schema,
                transport: HTTPSyncTransport(baseURL: baseURL, appKey: Self.appKey), maximumChangeSets: maximumChangeSets
            )
        }
        var report = BenchReport()

        // Catch-up: one device writes the records (1,000 per change set), a new one receives them.
        let writer = try device("writer", maximumChangeSets: 2)
        for batch in stride(from: 0, to: records, by: 1_000) {
            try writer.write { changes in
                for index in batch..<min(records, batch + 1_000) {
                    try changes.create("notes", ["label": .string("note \(index)"), "score": .int(Int64(index)), "flag": .bool(index % 2 == 0)])
                }
            }
        }
        try await writer.sync()
        let reader = try device("reader")
        let clock = ContinuousClock()
        let catchUp = try await clock.measure { _ = try await reader.sync() }
        guard try reader.records("notes").count == records else { throw RunFailure("the new device did not receive every record") }
        report.add("catch_up_100k_s", catchUp.seconds * 100_000 / Double(records), "a new device receives 100,000 records (s, goal ≤ 5)")

        // Push: each device saves a 10-record change set and syncs it, `pushes` times, all at once.
        let clients = try (0..<devices).map { try device("pusher-\($0)") }
        for client in clients { try await client.sync() }
        let started = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for client in clients {
                group.addTask {
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
        report.add("push_p50_ms", percentile(0.5, ofSorted: latencies).seconds * 1_000, "one 10-record change set, \(devices) devices pushing (ms)")
        report.add("push_p99_ms", percentile(0.99, ofSorted: latencies).seconds * 1_000, "  p99 (ms, goal ≤ 25)")
        report.add("change_sets_per_s", Double(latencies.count) / wall.seconds, "change sets applied per second")
        return report
    }
}
