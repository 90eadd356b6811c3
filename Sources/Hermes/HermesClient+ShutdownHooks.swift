import HermesWire

/// Work that must run at the start of ``HermesClient/shutdown()``, while the client still
/// accepts records: companion libraries (HermesLogging) save what they buffer.
final class ShutdownHooks: Sendable {
    private let hooks = Locked<[@Sendable () async -> Void]>([])

    func add(_ hook: @escaping @Sendable () async -> Void) {
        hooks.withLock { $0.append(hook) }
    }

    /// Runs the hooks added so far, oldest first, each once.
    func run() async {
        let hooks = self.hooks.withLock { hooks in
            defer { hooks.removeAll() }
            return hooks
        }
        for hook in hooks { await hook() }
    }
}

extension HermesClient {
    /// Registers `hook` to run at the start of ``shutdown()``, before the client stops
    /// accepting records, so it can still `send`. Hooks run once, in the order they were added;
    /// a hook added after `shutdown()` started never runs.
    package func addShutdownHook(_ hook: @escaping @Sendable () async -> Void) {
        shutdownHooks.add(hook)
    }
}
