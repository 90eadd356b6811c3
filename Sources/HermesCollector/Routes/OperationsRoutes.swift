import Hummingbird

/// `GET /health` (`ok`) and `GET /metrics` (Prometheus text), open to anyone on the loopback.
struct OperationsRoutes {
    let metrics: CollectorMetrics

    func register(on router: Router<BasicRequestContext>) {
        router.get("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok")))
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.prometheusText()))
            )
        }
    }
}
