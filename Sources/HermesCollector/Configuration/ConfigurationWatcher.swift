import Logging
import ServiceLifecycle

/// Keeps the served document in step with the ones other collectors save into a shared store:
/// runs ``CollectorStorage/watchConfiguration(_:)`` until graceful shutdown, reloading on every
/// call. For a store no other collector writes it just waits for shutdown.
struct ConfigurationWatcher: Service {
    let live: LiveConfiguration
    let storage: any CollectorStorage
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown { [live, storage, logger] in
            do {
                try await storage.watchConfiguration { await live.reload(logger: logger) }
            } catch {
                logger.error("stopped watching the configuration", metadata: ["error": "\(error)"])
            }
        }
        // A service that returns stops the group: wait for the shutdown that stops the others.
        try? await gracefulShutdown()
    }
}
