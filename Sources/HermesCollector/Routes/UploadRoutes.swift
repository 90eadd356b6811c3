import HermesWire
import Hummingbird
import Logging

/// `POST /v1/upload/meta` and `POST /v1/upload/payload`, behind the app key check
/// (``AuthenticationMiddleware``): reserve what the request may hold in the ``RequestBudget``,
/// check the size, decode the packet within its namespace's limits (refused whole when it cannot
/// be read or passes them), check each record on its own, store the valid ones in one
/// transaction, and answer 200 with an ``UploadAnswer``:
/// `{"stored":n,"duplicates":m,"rejected":[{"index","REPORT_ID","code","reason"}]}`.
struct UploadRoutes<Storage: CollectorStorage> {
    let storage: Storage
    let maxBodyBytes: Int
    let maxBlockBytes: Int
    let live: LiveConfiguration
    let budget: RequestBudget
    let ingestor: PacketIngestor
    let metrics: CollectorMetrics
    let wallClock: @Sendable () -> Int64
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        for kind in PacketKind.allCases {
            router.post(RouterPath(stringLiteral: HermesPath.upload(kind))) { request, _ in
                try await upload(kind, request)
            }
        }
    }

    private func upload(_ kind: PacketKind, _ request: Request) async throws -> Response {
        let headers = try UploadHeaders(request.headers)
        let limits = IngestLimits(namespace: await live.document.namespaces[headers.namespace], maxBlockBytes: maxBlockBytes)
        return try await budget.withReservation(request.bodyReservation(upTo: maxBodyBytes) + limits.packet.packetBytes) {
            try await upload(kind, request, headers: headers, limits: limits)
        }
    }

    private func upload(_ kind: PacketKind, _ request: Request, headers: UploadHeaders, limits: IngestLimits) async throws -> Response {
        let body = try await request.bodyBytes(upTo: maxBodyBytes)
        metrics.countBytesIn(body.count)
        let receivedAt = wallClock()
        let ingest = try ingestor.ingest(body, kind: kind, headers: headers, limits: limits, receivedAt: receivedAt)
        let outcome =
            ingest.batch.records.isEmpty
            ? StoreOutcome(stored: 0, duplicates: 0)
            : try await withStorageErrors("store the batch") { try await storage.store(ingest.batch) }
        metrics.countBatch(kind, outcome, rejected: ingest.rejected)
        logger.debug(
            "batch stored",
            metadata: [
                "kind": "\(kind.label)", "namespace": "\(headers.namespace)", "batch_id": "\(headers.batchID ?? "-")",
                "stored": "\(outcome.stored)", "duplicates": "\(outcome.duplicates)", "rejected": "\(ingest.rejected.count)",
                "bytes": "\(body.count)",
            ])
        if !ingest.rejected.isEmpty {
            let codes = Dictionary(ingest.rejected.map { ($0.code, 1) }, uniquingKeysWith: +)
            logger.notice(
                "records rejected",
                metadata: [
                    "namespace": "\(headers.namespace)", "batch_id": "\(headers.batchID ?? "-")",
                    "records": "\(ingest.rejected.count)",
                    "codes": "\(codes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))",
                ])
        }
        var acknowledgement = HTTPFields()
        if let batchID = headers.batchID { acknowledgement[.hermesBatchAcknowledged] = batchID }
        return try .json(
            UploadAnswer(stored: outcome.stored, duplicates: outcome.duplicates, rejected: ingest.rejected).json, headers: acknowledgement
        )
    }
}
