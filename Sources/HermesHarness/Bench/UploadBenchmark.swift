package import Foundation
package import Hermes
package import HermesWire
package import Logging

/// `hermes bench upload`: how fast `upload()` assembles, encodes and books batches out of a
/// store of 100k pending records of the demo's mix, against a transport that answers 200 at
/// once, and how many bytes a record takes on the wire against its raw JSON.
package struct UploadBenchmark {
    package var records = 100_000

    package init(records: Int = 100_000) {
        self.records = records
    }

    /// The two namespaces with nothing that starts a round on its own while the bench runs: no
    /// realtime type, the highest `flushCount`, the longest timer, and room for every record.
    /// `sdkHealth` is not monitored, so that the started client stores no record of its own and
    /// the upload carries exactly the records sent.
    package static func namespaces(isUpload: Bool) -> [String: NamespaceConfiguration] {
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.monitorList.removeAll { $0.type == MonitorType.sdkHealth }
        for index in hermes.monitorList.indices { hermes.monitorList[index].isRealtime = false }
        let jz = NamespaceConfiguration(monitorList: [MonitorItem(type: "pay"), MonitorItem(type: "view")])
        return ["hermes": hermes, "JZ": jz].mapValues { configuration in
            var configuration = configuration
            configuration.isUpload = isUpload
            configuration.maxCacheCount = 1_000_000
            configuration.flushCount = 10_000
            configuration.periodicTimerSecond = 30
            return configuration
        }
    }

    package func run() async throws -> BenchReport {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        // Fill with uploads off, so that flushCount rounds end at their first gate.
        let filler = try HermesClient(
            configuration: configuration(directory, isUpload: false, transport: AcceptingTransport()), logger: Logger(label: "hermes.bench"))
        try await fill(filler)
        await filler.shutdown()
        let stored = try StoreInspector.inspect(storageDirectory: directory).groups
        guard stored.reduce(0, { $0 + $1.rows }) == records else { throw RunFailure("expected \(records) stored rows") }
        let metaTable = stored.filter { $0.table == "meta" }
        let metaRows = metaTable.reduce(0) { $0 + $1.rows }
        let metaJSONBytes = metaTable.reduce(0) { $0 + $1.bytes }
        let rawBytes = stored.reduce(0) { $0 + $1.bytes }

        let transport = AcceptingTransport()
        let client = try HermesClient(
            configuration: configuration(directory, isUpload: true, transport: transport), logger: Logger(label: "hermes.bench"))
        client.start()
        let clock = ContinuousClock()
        let start = clock.now
        let summaries = await client.upload()
        let elapsed = start.duration(to: clock.now)
        await client.shutdown()

        let sent = summaries.values.reduce(0) { $0 + $1.recordsSent }
        guard sent == records, summaries.values.allSatisfy({ $0.outcome == .completed }) else {
            throw RunFailure("upload did not deliver every record: \(summaries)")
        }
        // The ratio is the meta packets' (records without payload): a meta block of 100 JSON
        // lines, gzip-compressed and sealed, against the same lines; payloads are compressed one
        // by one and are counted apart.
        let wireBytes = Double(transport.bodyBytes(kind: .meta)) / Double(metaRows)
        let jsonBytes = Double(metaJSONBytes) / Double(metaRows)
        let allWireBytes = Double(transport.bodyBytes(kind: .meta) + transport.bodyBytes(kind: .payload)) / Double(sent)
        var report = BenchReport()
        report.add("records", Double(sent), "records uploaded (100 per request)")
        report.add("requests", Double(transport.requests), "requests")
        report.add("assemble_encode_records_per_s", Double(sent) / elapsed.seconds, "records/s assembled, encoded, booked")
        report.add("wire_bytes_per_record", wireBytes, "wire bytes per record, meta packets")
        report.add("json_bytes_per_record", jsonBytes, "meta JSON bytes per record, meta packets")
        report.add("wire_ratio", wireBytes / jsonBytes, "wire / JSON, meta packets (target ≤ 0.125)")
        report.add("all_wire_bytes_per_record", allWireBytes, "wire bytes per record, whole mix")
        report.add("all_raw_bytes_per_record", Double(rawBytes) / Double(sent), "meta JSON + payload bytes per record, whole mix")
        return report
    }

    private func configuration(_ directory: URL, isUpload: Bool, transport: AcceptingTransport) throws -> HermesClient.Configuration {
        HermesClient.Configuration(
            storageDirectory: directory,
            app: .init(name: "Demo", version: "1.2.0", build: "42"),
            collectorURL: URL(string: "http://127.0.0.1:9"),
            credentials: .init(appKey: "bench", wireFormat: .v2(try AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1))),
            namespaceDefaults: Self.namespaces(isUpload: isUpload),
            uploadStartDelay: .seconds(3_600),
            networkMonitor: StaticNetworkMonitor(.unmetered),
            transport: transport,
            randomSeed: 42
        )
    }

    /// Sends the demo's mix: crashes with a stack of about 3 KB, lags, network samples, business events.
    private func fill(_ client: HermesClient) async throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<records {
            let type = SampleRecords.types[Int(random.next() % UInt64(SampleRecords.types.count))]
            let fields = SampleRecords.fields(for: type, random: &random)
            let outcome: SendOutcome
            if type.hasPrefix("JZ-") {
                outcome = client.send(type: String(type.dropFirst(3)), prefix: "JZ", meta: fields)
            } else if type == MonitorType.appCrash {
                outcome = client.send(type: type, meta: fields, payload: Data(SampleRecords.crashStack(random: &random)))
            } else {
                outcome = client.send(type: type, meta: fields)
            }
            guard outcome.isAccepted else { throw RunFailure("bench record rejected: \(outcome)") }
        }
        try await client.flush()
    }
}

/// A collector that takes every request at once: only counts it and answers 200 with the
/// batch's acknowledgement header.
private final class AcceptingTransport: Transport {
    private let totals = Locked((requests: 0, metaBytes: 0, payloadBytes: 0))

    var requests: Int { totals.withLock { $0.requests } }

    func bodyBytes(kind: PacketKind) -> Int {
        totals.withLock { kind == .meta ? $0.metaBytes : $0.payloadBytes }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let isPayload = request.url.path.hasSuffix(HermesPath.uploadPayload)
        totals.withLock { totals in
            totals.requests += 1
            if isPayload { totals.payloadBytes += request.body.count } else { totals.metaBytes += request.body.count }
        }
        // Acknowledges the batch as the collector does, or the client would keep every record.
        return TransportResponse(status: 200, headers: [HermesHeader.batchAcknowledged: request.headers[HermesHeader.batchID] ?? ""])
    }
}
