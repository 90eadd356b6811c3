package import Foundation
package import HermesCollector
package import HermesSync
package import HermesWire

/// `hermes sync bench`: a new device catching up on 100,000 records over loopback HTTP; a device
/// sending the 1,000 change sets it queued offline; the latency of one push while 50 devices
/// push at a realistic rate (open loop); and the same devices pushing back to back (closed loop),
/// for the throughput at saturation. Each figure is the median of `runs` runs, each run on fresh
/// stores.
package struct SyncBench {
    package static let appKey = "sync-bench"

    package let records: Int
    package let devices: Int
    /// Change sets each device pushes, in each of the two push phases.
    package let pushes: Int
    /// The mean time between two pushes of one device in the open loop.
    package let interval: Duration
    package let runs: Int
    package let seed: UInt64
    /// Change sets the offline device queues.
    package var offlineChangeSets = 1_000

    package init(records: Int, devices: Int, pushes: Int, interval: Duration, runs: Int, seed: UInt64, offlineChangeSets: Int = 1_000) {
        self.records = records
        self.devices = devices
        self.pushes = pushes
        self.interval = interval
        self.runs = runs
        self.seed = seed
        self.offlineChangeSets = offlineChangeSets
    }

    /// The latencies of a push phase.
    private struct Pushes {
        var latencies: [Duration]
        var wall: Duration
        var received: Int

        var p50: Double { percentile(0.5, ofSorted: latencies).seconds * 1_000 }
        var p99: Double { percentile(0.99, ofSorted: latencies).seconds * 1_000 }
        var perSecond: Double { Double(latencies.count) / wall.seconds }
    }

    package func run() async throws -> BenchReport {
        var catchUps: [CatchUp] = []
        var drains: [(seconds: Double, exchanges: Int)] = []
        var openLoops: [Pushes] = []
        var saturated: [Pushes] = []
        for run in 0..<runs {
            catchUps.append(try await withServer(catchUp))
            drains.append(try await withServer { device, _, _ in try await drainOfflineQueue(device) })
            openLoops.append(try await withServer { device, _, _ in try await openLoop(device, seed: seed &+ UInt64(run)) })
            saturated.append(try await withServer { device, _, _ in try await closedLoop(device) })
        }
        let rate = Double(devices) / interval.seconds
        var report = BenchReport()
        report.add(
            "catch_up_100k_s", median(catchUps.map(\.seconds)), "a new device receives 100,000 records (s, goal ≤ 5; median of \(runs) runs)")
        report.add(
            "catch_up_bytes_per_record", median(catchUps.map(\.bytesPerRecord)),
            "  answer bytes on the wire per record received (gzipped, HTTP headers left out)")
        report.add(
            "snapshot_start_s", median(catchUps.map(\.snapshotStart)),
            "a new device starts from a snapshot of the \(records) records shipped with its app: usable database (s, goal ≤ 1)")
        report.add(
            "offline_queue_s", median(drains.map(\.seconds)),
            "a device sends the \(offlineChangeSets) change sets it queued offline (\(Self.offlineRecords) notes created, then edited in turn) (s)"
        )
        report.add(
            "dependent_queue_exchanges", median(drains.map { Double($0.exchanges) }),
            "  requests it took (\(Self.offlineDeviceChangeSets) change sets a request; goal ≤ 10 for 1,000)")
        report.add(
            "push_p50_ms", median(openLoops.map(\.p50)),
            "one 10-record push, \(devices) devices pushing \(Self.format(rate)) change sets/s in all (ms)")
        report.add("push_p99_ms", median(openLoops.map(\.p99)), "  p99 (ms, goal ≤ 15)")
        report.add(
            "push_received_records", median(openLoops.map { Double($0.received) / Double($0.latencies.count) }),
            "  records each push receives from the other devices")
        report.add("saturated_push_p50_ms", median(saturated.map(\.p50)), "one push, \(devices) devices pushing back to back (ms)")
        report.add("saturated_push_p99_ms", median(saturated.map(\.p99)), "  p99 (ms)")
        report.add("change_sets_per_s", median(saturated.map(\.perSecond)), "change sets applied per second at saturation")
        return report
    }

    /// Runs `body` against a collector with an empty sync store (`storage`) in a new directory, on
    /// loopback; every device's transport counts the answer bytes it receives in `received`.
    private func withServer<T: Sendable>(
        _ body: (_ device: (String, Int) throws -> SyncClient, _ received: ReceivedBytes, _ storage: any SyncStorage) async throws -> T
    ) async throws -> T {
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
        let received = ReceivedBytes()
        do {
            let device = { (id: String, maximumChangeSets: Int) throws -> SyncClient in
                try SyncClient(
                    path: directory.appendingPathComponent("\(id).sqlite").path, clientID: id, schema: SyncTortureSchema.schema,
                    transport: HTTPSyncTransport(baseURL: baseURL, appKey: Self.appKey, transport: received), maximumChangeSets: maximumChangeSets
                )
            }
            let result = try await body(device, received, storage)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// A catch-up's figures.
    private struct CatchUp {
        /// The new device's seconds, scaled to 100,000 records.
        var seconds: Double
        /// Answer bytes on the wire per record received.
        var bytesPerRecord: Double
        /// Seconds from a snapshot file to a device database that answers reads.
        var snapshotStart: Double
    }

    /// One device writes the records (1,000 per change set); a new one receives them; another
    /// starts from a snapshot of them (written untimed), opening it and reading it.
    private func catchUp(_ device: (String, Int) throws -> SyncClient, received: ReceivedBytes, storage: any SyncStorage) async throws
        -> CatchUp
    {
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
        let before = received.total
        let elapsed = try await ContinuousClock().measure { _ = try await reader.sync() }
        guard try reader.records("notes").count == records else { throw RunFailure("the new device did not receive every record") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-sync-snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshot = directory.appendingPathComponent("shipped.sqlite").path
        _ = try await SyncSnapshotExport.write(from: storage, schema: SyncTortureSchema.schema, to: snapshot)
        var started = 0
        let start = try ContinuousClock().measure {
            let client = try SyncClient(
                path: directory.appendingPathComponent("new.sqlite").path, clientID: "new", schema: SyncTortureSchema.schema,
                transport: HTTPSyncTransport(baseURL: URL(string: "http://127.0.0.1:1")!, appKey: Self.appKey), snapshot: snapshot)
            started = try client.records("notes").count
        }
        guard started == records else { throw RunFailure("the device started from the snapshot without every record") }
        return CatchUp(
            seconds: elapsed.seconds * 100_000 / Double(records), bytesPerRecord: Double(received.total - before) / Double(records),
            snapshotStart: start.seconds)
    }

    package static let offlineRecords = 10

    /// Change sets the offline device sends a request.
    package static let offlineDeviceChangeSets = 100

    /// One device works offline: it creates `offlineRecords` notes, then edits them in turn, one
    /// change set each, up to `offlineChangeSets` change sets; then it syncs. The change sets build
    /// on each other (the server reads each through the outcomes before it in the request), so the
    /// queue goes out `offlineDeviceChangeSets` a request.
    /// - Returns: the seconds until the queue is empty, and the requests it took.
    private func drainOfflineQueue(_ device: (String, Int) throws -> SyncClient) async throws -> (seconds: Double, exchanges: Int) {
        let client = try device("offline", Self.offlineDeviceChangeSets)
        var notes: [Int64] = []
        for index in 0..<offlineChangeSets {
            try client.write { changes in
                if index < Self.offlineRecords {
                    notes.append(try changes.create("notes", ["label": .string("note \(index)"), "score": .int(0)]))
                } else {
                    try changes.update("notes", id: notes[index % Self.offlineRecords], ["score": .int(Int64(index))])
                }
            }
        }
        var exchanges = 0
        let elapsed = try await ContinuousClock().measure { exchanges = try await client.sync().exchanges }
        guard try client.queuedChangeSets() == 0 else { throw RunFailure("the device did not send its queue") }
        return (elapsed.seconds, exchanges)
    }

    /// Open loop: each device pushes a 10-record change set `pushes` times, at seeded random
    /// (exponential) intervals averaging `interval`, whatever the others do. A push's latency runs
    /// from the moment it was due (not the moment it started: a device still busy with its last
    /// push starts late, and that wait counts) until its answer is applied, which includes
    /// receiving the change sets the other devices pushed since its last sync. The change set is
    /// saved before its push is due, as the app's edit would have been, and on a thread of its
    /// own: `write` waits for the disk to sync, and made from a task it would hold one of the few
    /// threads every task shares, so that the other devices' pushes and the collector would wait
    /// behind it.
    private func openLoop(_ device: (String, Int) throws -> SyncClient, seed: UInt64) async throws -> Pushes {
        try await pushing(device) { [pushes, interval] index, client, started in
            let clock = ContinuousClock()
            var random = SplitMix64(seed: seed ^ (0x5EED &+ UInt64(index) &* 0x9E37_79B9))
            var due = started
            var latencies: [Duration] = []
            var received = 0
            for push in 0..<pushes {
                due = due.advanced(by: Self.exponential(mean: interval, using: &random))
                try await Self.saveChangeSet(push, on: client)
                try await clock.sleep(until: due, tolerance: .zero)
                received += try await client.sync().received
                latencies.append(due.duration(to: clock.now))
            }
            return (latencies, received)
        }
    }

    /// Closed loop: each device saves a 10-record change set and syncs it, `pushes` times back to
    /// back, all devices at once: the server's throughput at saturation, and what a push costs
    /// there (by Little's law, about devices ÷ throughput).
    private func closedLoop(_ device: (String, Int) throws -> SyncClient) async throws -> Pushes {
        try await pushing(device) { [pushes] _, client, _ in
            let clock = ContinuousClock()
            var latencies: [Duration] = []
            var received = 0
            for push in 0..<pushes {
                try await Self.saveChangeSet(push, on: client)
                let start = clock.now
                received += try await client.sync().received
                latencies.append(start.duration(to: clock.now))
            }
            return (latencies, received)
        }
    }

    /// Runs `pushes` on every device at once, each device caught up with the (empty) server and
    /// connected first, as a device that has been running is: none of that is timed.
    /// - Parameter pushes: one device's pushes (its index, the device, the start of the phase),
    ///   returning their latencies and the records they received.
    private func pushing(
        _ device: (String, Int) throws -> SyncClient,
        _ pushes: @escaping @Sendable (Int, SyncClient, ContinuousClock.Instant) async throws -> ([Duration], Int)
    ) async throws -> Pushes {
        let clients = try (0..<devices).map { try device("device-\($0)", 100) }
        for client in clients { try await client.sync() }
        let started = ContinuousClock.now
        let (latencies, received) = try await withThrowingTaskGroup(of: ([Duration], Int).self) { group in
            for (index, client) in clients.enumerated() { group.addTask { try await pushes(index, client, started) } }
            return try await group.reduce(into: ([Duration](), 0)) {
                $0.0 += $1.0; $0.1 += $1.1
            }
        }
        return Pushes(latencies: latencies.sorted(), wall: started.duration(to: .now), received: received)
    }

    /// A 10-record change set, saved and queued on `client` from a thread of its own (``onThread(_:)``).
    private static func saveChangeSet(_ push: Int, on client: SyncClient) async throws {
        try await onThread {
            try client.write { changes in
                for index in 0..<10 { try changes.create("tags", ["label": .string("tag \(push).\(index)"), "score": .int(Int64(index))]) }
            }
        }
    }

    /// A draw from the exponential distribution of mean `mean`: the gap between two arrivals of
    /// a Poisson process.
    package static func exponential(mean: Duration, using random: inout SplitMix64) -> Duration {
        let uniform = Double.random(in: 0..<1, using: &random)
        return mean * -log1p(-uniform)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
