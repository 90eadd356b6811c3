public import ServiceLifecycle

/// A server adds the client to its `ServiceGroup`; on SIGTERM (or any graceful shutdown) the
/// client makes what it accepted durable, uploads once more within
/// ``HermesClient/Configuration/shutdownDeadline``, and shuts down.
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(
///     services: [client, server], gracefulShutdownSignals: [.sigterm], logger: logger))
/// try await group.run()
/// ```
extension HermesClient: Service {
    /// Starts the client (if it was not), waits for a graceful shutdown (or cancellation), then
    /// flushes, runs a last upload round bounded by the shutdown deadline, and shuts down.
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        await drain(within: configuration.shutdownDeadline)
        await shutdown()
    }

    /// Flushes and uploads, giving up at `deadline` (on the client's clock).
    private func drain(within deadline: Duration) async {
        let clock = sessions.clock
        let end = clock.now() + deadline
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await self.flush()
                _ = await self.upload()
            }
            group.addTask { try? await clock.sleep(until: end) }
            _ = await group.next()
            group.cancelAll()
        }
    }
}
