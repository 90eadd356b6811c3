package import Foundation
import Hummingbird
import Logging

/// A server on 127.0.0.1 that answers every request `200 OK` with the body `OK`: a captive
/// portal, a load balancer's default backend or a wrong URL, as a device meets them.
package enum AnySuccessServer {
    /// Runs the server while `body` runs with its base URL, then stops it.
    package static func run<T: Sendable>(_ body: (URL) async throws -> T) async throws -> T {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let router = Router()
        router.get("**") { _, _ in "OK" }
        router.post("**") { request, _ in
            _ = try await request.body.collect(upTo: 64 << 20)
            return "OK"
        }
        var logger = TortureLog.quiet
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "nginx"),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw RunFailure("the 200-to-everything server did not start") }
            return try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }
}
