package import Foundation
package import Hermes
package import HermesCollector
package import HermesCollectorPostgres
package import HermesWire
package import Logging
package import PostgresNIO

/// `hermes bench collector`: `instances` collector processes on one store behind a round-robin
/// front, `uploaders` concurrent clients posting unique and deliberately duplicated 100-record
/// batches; then, in the same run, the same rows inserted straight into a fresh database with as
/// many connections as uploaders and the store's own statement (nothing built in the timed loop):
/// the ceiling the collectors are measured against. The median of `runs` runs.
package struct CollectorBenchmark {
    package var instances: Int
    /// `nil` for SQLite (a temporary file per measurement), else the PostgreSQL server's URL (a
    /// fresh database per measurement, dropped after it).
    package var postgresURL: String?
    package var uploaders: Int
    package var batches: Int
    package var runs: Int

    package init(instances: Int, postgresURL: String?, uploaders: Int, batches: Int, runs: Int) {
        self.instances = instances
        self.postgresURL = postgresURL
        self.uploaders = uploaders
        self.batches = batches
        self.runs = runs
    }

    private static let aesKey: [UInt8] = Array(repeating: 7, count: 16)

    package func run() async throws -> BenchReport {
        var logger = Logger(label: "hermes.bench")
        logger.logLevel = .error
        let cipher = try AESGCMCipher(key: Self.aesKey, keyID: 1)
        let workload = try CollectorWorkload(batches: batches, cipher: cipher, now: Int64(Date().timeIntervalSince1970 * 1000))
        var measured: [Run] = []
        for _ in 0..<runs {
            var run = try await collectors(workload, logger: logger)
            run.raw = try await rawInsert(workload, logger: logger)
            measured.append(run)
        }
        var report = BenchReport()
        report.add("instances", Double(instances), "collector instances")
        report.add("uploaders", Double(uploaders), "concurrent uploaders")
        report.add("runs", Double(runs), "runs (medians below)")
        report.add("records", Double(workload.postedRecords), "records posted per run (duplicates included)")
        report.add("records_per_s", median(measured.map(\.recordsPerSecond)), "records/s through the collectors")
        report.add("p99_ms", median(measured.map(\.p99Milliseconds)), "p99 ms to store one 100-record upload")
        report.add("stored", Double(measured.map(\.stored).min() ?? 0), "records stored (fewest of the runs)")
        report.add("duplicates_stored", Double(measured.map(\.duplicatesStored).max() ?? 0), "duplicates stored (most of the runs)")
        report.add("lost", Double(measured.map(\.lost).max() ?? 0), "records lost (most of the runs)")
        report.add("raw_records_per_s", median(measured.map(\.raw.recordsPerSecond)), "records/s inserted straight into the store")
        report.add("ratio", median(measured.map { $0.recordsPerSecond / $0.raw.recordsPerSecond }), "collectors / straight insert")
        // CPU µs per record posted, by part: what a loaded machine changes little.
        func microseconds(_ key: String, _ label: String, _ seconds: (Run) -> Double?) {
            let values = measured.compactMap(seconds)
            if values.count == measured.count { report.add(key, median(values) * 1e6, label) }
        }
        microseconds("collector_cpu_us", "CPU µs per record: collector processes", \.cpu.collectors)
        microseconds("front_cpu_us", "CPU µs per record: the round-robin front", \.cpu.front)
        microseconds("uploaders_cpu_us", "CPU µs per record: the uploaders", \.cpu.uploaders)
        microseconds("postgres_cpu_us", "CPU µs per record: PostgreSQL, through the collectors", \.cpu.postgres)
        microseconds("raw_client_cpu_us", "CPU µs per record: the straight insert's client", \.raw.cpu.client)
        microseconds("raw_postgres_cpu_us", "CPU µs per record: PostgreSQL, straight insert", \.raw.cpu.postgres)
        let cpuRatios = measured.compactMap { run -> Double? in
            guard let postgres = run.cpu.postgres, let rawPostgres = run.raw.cpu.postgres else { return nil }
            return (rawPostgres + run.raw.cpu.client) / (postgres + run.cpu.collectors + run.cpu.front + run.cpu.uploaders)
        }
        if cpuRatios.count == measured.count {
            report.add("cpu_ratio", median(cpuRatios), "CPU per record straight / through the collectors (the ratio with the cores to themselves)")
        }
        return report
    }

    private struct Run {
        var recordsPerSecond: Double
        var p99Milliseconds: Double
        var stored: Int
        var duplicatesStored: Int
        var lost: Int
        var cpu: CollectorsCPU
        var raw = RawRun(recordsPerSecond: 0, cpu: RawCPU(client: 0, postgres: nil))
    }

    /// CPU seconds per record posted through the collectors, by part.
    private struct CollectorsCPU {
        /// The collector processes, their whole lives.
        var collectors: Double
        /// The round-robin front's threads while posting.
        var front: Double
        /// The rest of this process while posting: the uploaders.
        var uploaders: Double
        /// The database's backends, when the server runs on this host.
        var postgres: Double?
    }

    private struct RawRun {
        var recordsPerSecond: Double
        var cpu: RawCPU
    }

    /// CPU seconds per record inserted straight, by part.
    private struct RawCPU {
        /// This process during the timed loop.
        var client: Double
        /// The database's backends, when the server runs on this host.
        var postgres: Double?
    }

    /// The collectors' part of one run: start them on a fresh database, post everything, count.
    private func collectors(_ workload: CollectorWorkload, logger: Logger) async throws -> Run {
        try await BenchDatabase.withFresh(postgresURL: postgresURL, logger: logger) { location, directory in
            var started: [CollectorInstance] = []
            defer { for instance in started { instance.stop() } }
            let childrenCPU = ProcessTime.childrenCPUSeconds
            for index in 0..<instances {
                started.append(
                    try await CollectorInstance.start(
                        storage: location, aesKey: "1:" + Hex.string(Self.aesKey), log: directory.appendingPathComponent("collector-\(index).log")
                    ))
            }
            let front = try await RoundRobinFront.start(backends: started.map(\.port))
            let url = try requireURL("http://127.0.0.1:\(front.port)\(HermesPath.uploadMeta)")
            let headers = [HermesHeader.appKey: "bench", HermesHeader.namespace: CollectorWorkload.namespace, HermesHeader.packetVersion: "2"]
            let clock = ContinuousClock()
            let start = clock.now
            let clientCPU = ProcessTime.cpuSeconds
            let frontCPU = ProcStat.cpuSeconds(ownThreadsNamed: RoundRobinFront.threadNamePrefix) ?? 0
            let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
                for uploader in 0..<uploaders {
                    group.addTask {
                        // One transport per uploader: its own kept-alive connection, which the front
                        // gives to one instance. The SDK's socket transport, so that the load
                        // generator costs next to nothing, as the raw insert's client does.
                        let transport = SocketHTTPTransport()
                        var latencies: [Duration] = []
                        for position in workload.share(uploader, of: uploaders) {
                            let request = TransportRequest(
                                method: "POST", url: url, headers: headers, body: workload.bodies[workload.order[position]])
                            let sent = clock.now
                            let response = try await transport.send(request)
                            latencies.append(sent.duration(to: clock.now))
                            guard response.status == 200 else { throw RunFailure("a collector answered \(response.status)") }
                        }
                        return latencies
                    }
                }
                return try await group.reduce(into: [Duration]()) { $0 += $1 }
            }
            let elapsed = start.duration(to: clock.now)
            let clientSeconds = ProcessTime.cpuSeconds - clientCPU
            let frontSeconds = (ProcStat.cpuSeconds(ownThreadsNamed: RoundRobinFront.threadNamePrefix) ?? 0) - frontCPU
            try await front.stop()
            let (stored, postgresSeconds) = try await StorageLocation(location).withOpen(logger: logger) { storage in
                let postgresSeconds = try await Self.postgresCPU(storage, logger: logger)
                for instance in started { instance.stop() }
                return (try await storage.count(EventQuery()), postgresSeconds)
            }
            let collectorSeconds = ProcessTime.childrenCPUSeconds - childrenCPU
            let records = Double(workload.postedRecords)
            return Run(
                recordsPerSecond: Double(workload.postedRecords) / elapsed.seconds,
                p99Milliseconds: percentile(0.99, ofSorted: latencies.sorted()).seconds * 1000,
                stored: stored,
                duplicatesStored: max(0, stored - workload.uniqueRecords),
                lost: max(0, workload.uniqueRecords - stored),
                cpu: CollectorsCPU(
                    collectors: collectorSeconds / records, front: frontSeconds / records,
                    uploaders: (clientSeconds - frontSeconds) / records, postgres: postgresSeconds.map { $0 / records }
                )
            )
        }
    }

    /// The ceiling: the same batches, in the same order, straight into a fresh database of the
    /// same kind from `uploaders` concurrent connections, with the store's own statement.
    private func rawInsert(_ workload: CollectorWorkload, logger: Logger) async throws -> RawRun {
        try await BenchDatabase.withFresh(postgresURL: postgresURL, logger: logger) { location, _ in
            try await StorageLocation(location).withOpen(logger: logger) { storage in
                let clock = ContinuousClock()
                let clientCPU = ProcessTime.cpuSeconds
                let elapsed: Duration
                if let postgres = storage as? PostgresCollectorStorage {
                    // Every statement's arrays built before the clock starts.
                    let rows = workload.order.map { EventRows(workload.batches[$0]) }
                    elapsed = try await clock.measure {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for uploader in 0..<uploaders {
                                group.addTask {
                                    try await postgres.client.withConnection { connection in
                                        for position in workload.share(uploader, of: uploaders) {
                                            _ = try await PostgresCollectorStorage.insert(rows[position], on: connection, logger: logger)
                                        }
                                    }
                                }
                            }
                            try await group.waitForAll()
                        }
                    }
                } else {
                    elapsed = try await clock.measure {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for uploader in 0..<uploaders {
                                group.addTask {
                                    for position in workload.share(uploader, of: uploaders) {
                                        _ = try await storage.store(workload.batches[workload.order[position]])
                                    }
                                }
                            }
                            try await group.waitForAll()
                        }
                    }
                }
                let clientSeconds = ProcessTime.cpuSeconds - clientCPU
                let postgresSeconds = try await Self.postgresCPU(storage, logger: logger)
                let stored = try await storage.count(EventQuery())
                guard stored == workload.uniqueRecords else { throw RunFailure("the raw insert stored \(stored) of \(workload.uniqueRecords)") }
                let records = Double(workload.postedRecords)
                return RawRun(
                    recordsPerSecond: records / elapsed.seconds,
                    cpu: RawCPU(client: clientSeconds / records, postgres: postgresSeconds.map { $0 / records })
                )
            }
        }
    }
}

extension CollectorBenchmark {
    /// The CPU seconds PostgreSQL has spent for the database `storage` is on: its backends'
    /// (each connection's process, all made for this measurement's fresh database), read from
    /// `/proc`; `nil` for SQLite, or a server on another host.
    private static func postgresCPU(_ storage: any CollectorStorage, logger: Logger) async throws -> Double? {
        guard let postgres = storage as? PostgresCollectorStorage else { return nil }
        let rows = try await postgres.client.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database()", logger: logger)
        var total = 0.0
        for try await pid in rows.decode(Int32.self) {
            guard let seconds = ProcStat.cpuSeconds(process: Int(pid)) else { return nil }
            total += seconds
        }
        return total
    }
}
