import Hummingbird
import NIOCore

/// Runs `router` on a free port of 127.0.0.1 while `body` runs with that port, then stops the
/// server, whether `body` returns or throws.
func withLoopbackServer<T: Sendable>(_ router: Router<BasicRequestContext>, _ body: (Int) async throws -> T) async throws -> T {
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) }
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.runService(gracefulShutdownSignals: []) }
        defer { group.cancelAll() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
        return try await body(port)
    }
}
