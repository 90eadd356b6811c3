package import Foundation
package import HermesCollector
package import HermesCollectorPostgres
import HermesTransport
package import HermesWire
package import Logging

/// `hermes bench console`: how fast the web console's pages answer over a store of `records`
/// records of a realistic mix (``ConsoleWorkload``).
///
/// The store, a SQLite file in a scratch directory or a fresh database on a PostgreSQL server,
/// is filled through ``CollectorStorage/store(_:)`` in 100-record batches (not timed). Its crash
/// records are grouped as the collector's ``CrashGroupingService`` does, in steps (timed). A
/// collector then serves it on loopback (``CollectorServer``), a console user signs in over
/// HTTP, and each page is asked for `runs` times, end to end, round after round (one round
/// first to warm up, not counted): the overview, the first records page, a records page
/// filtered on a meta value that about 1 % of the records hold, one filtered on a user, the
/// performance page over 24 hours, and the crash groups. Last, `runs` records are uploaded one at a time through the
/// collector's upload endpoint while the live tail is open, each after a random part of the
/// tail's poll interval, and timed from the upload's answer to its event on the stream.
package struct ConsoleBenchmark {
    package var records: Int
    /// `nil` for SQLite, else the PostgreSQL server's URL (a fresh database, dropped after).
    package var postgresURL: String?
    /// Requests per page, and uploads to the tail.
    package var runs: Int

    package init(records: Int, postgresURL: String?, runs: Int) {
        self.records = records
        self.postgresURL = postgresURL
        self.runs = runs
    }

    /// One page the benchmark asks for.
    private struct Page {
        var key: String
        var label: String
        /// Path and query, percent-encoded.
        var path: String
        /// The answer's list that must not be empty, if any.
        var list: String?
    }

    private static let pages: [Page] = [
        Page(key: "overview", label: "overview", path: "/console/api/overview"),
        Page(key: "records_page", label: "records, first page", path: "/console/api/records", list: "records"),
        Page(
            key: "filtered_page", label: "records, meta \(ConsoleWorkload.campaignKey)=\(filteredCampaign) (~1 %)",
            path: "/console/api/records?meta=\(ConsoleWorkload.campaignKey)%3D\(filteredCampaign)", list: "records"),
        Page(key: "user_page", label: "records, user=\(filteredUser)", path: "/console/api/records?user=\(filteredUser)", list: "records"),
        Page(key: "performance", label: "performance, 24 hours", path: "/console/api/performance?hours=24"),
        Page(key: "crash_groups", label: "crash groups, 30 days", path: "/console/api/crashes", list: "groups"),
    ]

    private static let filteredCampaign = ConsoleWorkload.campaign(7)
    private static let filteredUser = ConsoleWorkload.user(0)
    private static let appKey = "console-bench"
    private static let userName = "bench"
    /// Batches stored at once while filling.
    private static let fillers = 4

    package func run() async throws -> BenchReport {
        let logger = Self.benchLogger
        return try await Self.withFilledStore(records: records, postgresURL: postgresURL, logger: logger) { storage, fillSeconds in
            let stored = try await storage.count(EventQuery())
            guard stored == records else { throw RunFailure("the store holds \(stored) records of \(records)") }
            var campaign = EventQuery()
            campaign.metaEquals = [try MetaMatch(key: ConsoleWorkload.campaignKey, value: Self.filteredCampaign)]
            let matching = try await storage.count(campaign)
            let crashes = try await storage.count(EventQuery(namespace: RecordNamespace.monitoring, monitorType: MonitorType.appCrash))
            let clock = ContinuousClock()
            let start = clock.now
            let grouped = try await Self.groupCrashes(storage, records: crashes)
            let groupingSeconds = start.duration(to: clock.now).seconds
            guard grouped == crashes else { throw RunFailure("grouping took \(grouped) crash records of \(crashes)") }
            let measured = try await serve(storage, logger: logger)
            var report = BenchReport()
            report.add("records", Double(records), "records in the store")
            report.add("runs", Double(runs), "requests per page, uploads to the tail")
            report.add("fill_s", fillSeconds, "seconds to fill the store (not part of the figures below)")
            report.add("filtered_records", Double(matching), "records the filtered page's meta value matches")
            report.add("crash_records", Double(crashes), "crash records")
            report.add("crash_grouping_records_per_s", Double(crashes) / groupingSeconds, "crash records grouped per second")
            for page in Self.pages {
                report.add("\(page.key)_ms_p95", Self.p95Milliseconds(measured.pages[page.key] ?? []), "ms p95: \(page.label)")
            }
            report.add("tail_latency_ms_p95", Self.p95Milliseconds(measured.tail), "ms p95: an upload answered to its event on the live tail")
            return report
        }
    }

    /// A logger that prints errors only, for the benchmarks' collectors and stores.
    package static var benchLogger: Logger {
        var logger = Logger(label: "hermes.bench")
        logger.logLevel = .error
        return logger
    }

    /// Runs `body` with a fresh store (``BenchDatabase``) filled with `records` records of
    /// ``ConsoleWorkload``'s mix made in the day before now, and the seconds the fill took.
    package static func withFilledStore<T>(
        records: Int, postgresURL: String?, logger: Logger, _ body: (any CollectorStorage, Double) async throws -> T
    ) async throws -> T {
        let workload = ConsoleWorkload(records: records, now: CollectorConfiguration.systemWallClock())
        return try await BenchDatabase.withFresh(postgresURL: postgresURL, logger: logger) { location, _ in
            try await StorageLocation(location).withOpen(logger: logger) { storage in
                let fillSeconds = try await ContinuousClock().measure { try await fill(storage, with: workload) }.seconds
                return try await body(storage, fillSeconds)
            }
        }
    }

    /// What one collector served: each page's request times, by key, and the tail's latencies.
    private struct Served {
        var pages: [String: [Duration]] = [:]
        var tail: [Duration] = []
    }

    /// Stores every batch of `workload`, ``fillers`` at a time, each built as it is stored.
    private static func fill(_ storage: any CollectorStorage, with workload: ConsoleWorkload) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for filler in 0..<fillers {
                group.addTask {
                    for index in stride(from: filler, to: workload.batchCount, by: fillers) {
                        _ = try await storage.store(try workload.batch(index))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Groups the store's crash records in the grouping service's steps until a step finds fewer
    /// than a step's worth; at most as many steps as `records` needs, and one more.
    /// - Returns: how many records were grouped.
    private static func groupCrashes(_ storage: any CollectorStorage, records: Int) async throws -> Int {
        var grouped = 0
        for _ in 0...(records / CrashGroupingService.stepSize) {
            let step = try await storage.groupCrashes(limit: CrashGroupingService.stepSize)
            grouped += step
            if step < CrashGroupingService.stepSize { break }
        }
        return grouped
    }

    /// Starts a collector on `storage`, signs in, and times the pages and the tail.
    private func serve(_ storage: any CollectorStorage, logger: Logger) async throws -> Served {
        let cipher = try AESGCMCipher(key: Hex.randomBytes(16), keyID: 1)
        var configuration = CollectorConfiguration(
            port: 0, appKeys: [Self.appKey], adminToken: Hex.string(Hex.randomBytes(16)), keyring: Keyring([cipher]))
        configuration.console.passwordCost = 4
        // One stream for every upload to the tail.
        configuration.console.tailStreamLifetime = .seconds(3_600)
        let password = Hex.string(Hex.randomBytes(8))
        let hash = try await PasswordHasher.hash(password, cost: configuration.console.passwordCost)
        try await storage.saveConsoleUser(
            ConsoleUser(name: Self.userName, role: .viewer, passwordHash: hash, createdAt: CollectorConfiguration.systemWallClock()))
        let server = try await CollectorServer.start(configuration: configuration, storage: storage, logger: logger)
        do {
            let client = try await ConsoleClient.signIn(port: server.port, name: Self.userName, password: password)
            var served = Served()
            served.pages = try await pages(client)
            served.tail = try await tail(client, port: server.port, cipher: cipher, interval: configuration.console.tailInterval)
            try await server.shutdown()
            return served
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// Each page's request times, by key: `runs` rounds after one to warm up, which also checks
    /// that the lists the pages answer are not empty.
    private func pages(_ client: ConsoleClient) async throws -> [String: [Duration]] {
        let clock = ContinuousClock()
        var times: [String: [Duration]] = [:]
        for round in 0...runs {
            for page in Self.pages {
                let start = clock.now
                let body = try await client.get(page.path)
                let elapsed = start.duration(to: clock.now)
                guard round > 0 else {
                    if let list = page.list, case .array(let rows)? = try JSONValue(parsing: body).objectValue?[list], rows.isEmpty {
                        throw RunFailure("GET \(page.path) answered no \(list)")
                    }
                    continue
                }
                times[page.key, default: []].append(elapsed)
            }
        }
        return times
    }

    /// The live tail's latencies: `runs` one-record uploads, each after a random part of
    /// `interval` (so that uploads fall anywhere between two polls), timed from the upload's
    /// answer to its event on the stream.
    private func tail(_ client: ConsoleClient, port: Int, cipher: AESGCMCipher, interval: Duration) async throws -> [Duration] {
        let clock = ContinuousClock()
        let uploader = SocketHTTPTransport()
        let url = try requireURL(client.origin + HermesPath.uploadMeta)
        var random = SplitMix64(seed: 17)
        let intervalMilliseconds = UInt64(interval.seconds * 1000)
        return try await EventStreamReader.withOpen(port: port, path: "/console/api/tail", headers: ["Cookie": client.cookie]) { stream in
            try await stream.read(until: "retry:", deadline: clock.now + .seconds(10))
            var latencies: [Duration] = []
            for index in 0..<runs {
                try await Task.sleep(for: .milliseconds(random.next() % max(1, intervalMilliseconds)))
                // The device id marks the upload: the tail's rows carry it.
                let device = "console-bench-tail-\(index)"
                let response = try await uploader.send(
                    TransportRequest(
                        method: "POST", url: url,
                        headers: [
                            HermesHeader.appKey: Self.appKey, HermesHeader.namespace: RecordNamespace.monitoring, HermesHeader.packetVersion: "2",
                            HermesHeader.deviceID: device, HermesHeader.batchID: device,
                        ],
                        body: try Self.upload(index, cipher: cipher)))
                let answered = clock.now
                guard response.status == 200 else { throw RunFailure("the upload to the tail answered \(response.status)") }
                try await stream.read(until: "\"\(device)\"", deadline: answered + .seconds(10))
                latencies.append(answered.duration(to: clock.now))
            }
            return latencies
        }
    }

    /// The body of upload `index` to the tail: one `appLag` record made now, sealed with `cipher`.
    private static func upload(_ index: Int, cipher: AESGCMCipher) throws -> [UInt8] {
        let meta: JSONValue = [
            RecordField.reportID: .string("console-bench-tail-\(index)"), RecordField.namespace: .string(RecordNamespace.monitoring),
            RecordField.monitorType: .string(MonitorType.appLag), RecordField.createTime: .int(CollectorConfiguration.systemWallClock()),
            RecordField.isBusiness: false, "durationMs": 300,
        ]
        return try WireFormat.v2(cipher).encode(Packet(kind: .meta, metaLines: [try meta.jsonBytes()]))
    }

    private static func p95Milliseconds(_ samples: [Duration]) -> Double {
        samples.isEmpty ? 0 : percentile(0.95, ofSorted: samples.sorted()).seconds * 1000
    }
}
