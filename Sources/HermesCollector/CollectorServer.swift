import Hummingbird
public import Logging
import ServiceLifecycle
import UnixSignals

/// A collector running in this process: started, listening on ``port``, stopped by
/// ``shutdown()`` (or by SIGINT/SIGTERM when asked).
///
/// Use it to embed a collector (the demo, live tests) or to serve one from the command line.
///
/// ```swift
/// var configuration = CollectorConfiguration(appKeys: ["demo"], adminToken: token, keyring: keyring)
/// configuration.port = 0
/// let server = try await CollectorServer.start(
///     configuration: configuration, storage: try SQLiteCollectorStorage.inMemory(), logger: logger
/// )
/// // … point the SDK at http://127.0.0.1:\(server.port) …
/// try await server.shutdown()
/// ```
public final class CollectorServer: Sendable {
    /// The port the server listens on (the one picked when the configuration asked for 0).
    public let port: Int
    /// The server's counters.
    public let metrics: CollectorMetrics
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, metrics: CollectorMetrics, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.metrics = metrics
        self.group = group
        self.running = running
    }

    /// Starts a collector and returns once it listens.
    /// - Parameters:
    ///   - configuration: where to listen (port 0 for any free port), keys and tokens.
    ///   - storage: where records and the configuration document live.
    ///   - sync: record sync (`POST /v1/sync`), or `nil` to serve none.
    ///   - metrics: the counters to update and serve.
    ///   - logger: where the collector logs.
    ///   - stopsOnSignals: whether SIGINT and SIGTERM shut the server down gracefully.
    /// - Returns: the running server.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the saved configuration cannot be read,
    ///   the server's error if it cannot listen (the port is taken, for example).
    public static func start(
        configuration: CollectorConfiguration,
        storage: some CollectorStorage,
        sync: SyncServer? = nil,
        metrics: CollectorMetrics = CollectorMetrics(),
        logger: Logger,
        stopsOnSignals: Bool = false
    ) async throws -> CollectorServer {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(
            configuration: configuration, storage: storage, sync: sync, metrics: metrics, logger: logger,
            onServerRunning: { port in
                portContinuation.yield(port)
                portContinuation.finish()
            }
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [app],
                gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [],
                logger: logger
            ))
        let running = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            await group.triggerGracefulShutdown()
            try await running.value
            throw CollectorError(.serverStopped, "the collector stopped before it listened")
        }
        return CollectorServer(port: port, metrics: metrics, group: group, running: running)
    }

    /// Waits until the server has stopped, by ``shutdown()`` or a signal; cancelling the wait stops it.
    /// - Throws: the error the server stopped with, if any.
    public func waitUntilStopped() async throws {
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            running.cancel()
        }
    }

    /// Stops accepting connections, finishes the requests in flight, and returns once stopped.
    /// - Throws: the error the server stopped with, if any.
    public func shutdown() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
