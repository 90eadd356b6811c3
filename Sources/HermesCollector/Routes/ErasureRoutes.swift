import Foundation
import HermesWire
import Hummingbird
import Logging

/// Erasure: `DELETE /v1/admin/users/{id}` and `DELETE /v1/admin/devices/{id}` remove every
/// record of that user or device from the store (``CollectorStorage/erase(_:)``), answer how
/// many went, and log an audit line. Registered behind the admin token
/// (``AuthenticationMiddleware``).
struct ErasureRoutes<Storage: CollectorStorage> {
    let storage: Storage
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.delete("/v1/admin/users/{id}") { _, context -> Response in try await erase(.user(Self.id(context))) }
        router.delete("/v1/admin/devices/{id}") { _, context -> Response in try await erase(.device(Self.id(context))) }
    }

    private func erase(_ subject: ErasureSubject) async throws -> Response {
        let removed = try await withStorageErrors("erase records") { try await storage.erase(subject) }
        subject.logAudit(removed: removed, by: AdminRoutes.author, to: logger)
        return try .json(["subject": .string(subject.kind), "id": .string(subject.id), "removed": .int(Int64(removed))])
    }

    private static func id(_ context: BasicRequestContext) throws(CollectorError) -> String {
        guard let id = context.parameters.get("id")?.removingPercentEncoding, !id.isEmpty else {
            throw CollectorError(.invalidQuery, "the path needs an id")
        }
        return id
    }
}
