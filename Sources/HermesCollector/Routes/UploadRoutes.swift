import Foundation
import Hummingbird
import HermesWire
import Logging

/// `POST /v1/upload/meta` and `POST /v1/upload/payload`: check the app key and size, decode and
/// check the whole batch, store it in one transaction, answer `{"stored":n,"duplicates":m}`.
struct UploadRoutes<Storage: CollectorStorage> {
    let storage: Storage
    let appKeys: Set<String>
    let maxBodyBytes: Int
    let ingestor: PacketIngestor
    let metrics: CollectorMetrics
    let logger: Logger

    func register(on router: Router<BasicRequestContext>) {
        for kind in PacketKind.allCases {
            router.post(RouterPath(stringLiteral: HermesPath.upload(kind))) { request, _ in
                try await upload(kind, request)
            }
        }
    }

    private func upload(_ kind: PacketKind, _ request: Request) async throws -> Response {
        try request.requireAppKey(in: appKeys)
        let body = try await request.bodyBytes(upTo: maxBodyBytes)
        metrics.countBytesIn(body.count)
        let headers = try UploadHeaders(request.headers)
        let receivedAt = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let batch = try ingestor.batch(body, kind: kind, headers: headers, receivedAt: receivedAt)
        let outcome = try await withStorageErrors("store the batch") { try await storage.store(batch) }
        metrics.countBatch(kind, outcome)
        logger.debug("batch stored", metadata: [
            "kind": "\(kind.label)", "namespace": "\(headers.namespace)", "batch_id": "\(headers.batchID ?? "-")",
            "stored": "\(outcome.stored)", "duplicates": "\(outcome.duplicates)", "bytes": "\(body.count)",
        ])
        return try .json(["stored": .int(Int64(outcome.stored)), "duplicates": .int(Int64(outcome.duplicates))])
    }
}
