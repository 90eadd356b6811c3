import Hummingbird

/// `GET /health` (`ok`: the process serves), `GET /ready` (`ready`, or 503 while the store
/// cannot be read) and `GET /metrics` (Prometheus text, the store's size read at each scrape),
/// open to anyone on the loopback.
struct OperationsRoutes {
    let metrics: CollectorMetrics
    let storage: any CollectorStorage

    func register(on router: Router<BasicRequestContext>) {
        router.get("/health") { _, _ in
            Self.text("ok", .ok)
        }
        router.get("/ready") { _, _ in
            // Reading the configuration document touches the store and costs next to nothing.
            // Not a refusal: a probe is not counted among the rejects.
            do {
                _ = try await storage.loadConfiguration()
                return Self.text("ready", .ok)
            } catch {
                return Self.text("not ready: the store cannot be read", .serviceUnavailable)
            }
        }
        router.get("/metrics") { _, _ in
            // The size is read at each scrape; a store that cannot tell leaves the gauge as it was.
            if let bytes = try? await storage.storageBytes() { metrics.recordDatabaseBytes(bytes) }
            metrics.recordProcess(.current())
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.prometheusText()))
            )
        }
    }

    private static func text(_ text: String, _ status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
