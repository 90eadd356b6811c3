import HermesWire
import Logging

/// The one home of a client's configuration (specification §3): the effective configuration of
/// each namespace (``NamespaceRegistry``: server > cache > default), the disk cache, the fetcher
/// and its ETag, and the periodic refresh. The client, the upload engine and the store writer ask
/// it; whoever must act on a new document (the upload engine) observes ``applyObserver``.
///
/// Reading a namespace's configuration is one uncontended lock and no allocation: `send` asks on
/// every record, for its ``SendRules``. A fetch never holds the lock.
final class ConfigurationService: Sendable {
    private let state: Locked<State>
    private let cache: ConfigurationCache
    private let fetcher: ConfigurationFetcher?
    private let clock: MonotonicClock
    private let refreshInterval: Duration
    private let logger: Logger
    private let background = TaskSet()

    /// Told, before ``refresh()`` returns, which namespaces a newly applied document changed.
    /// Not told on a 304 or a failure.
    let applyObserver = Locked<(@Sendable (Set<String>) async -> Void)?>(nil)

    private struct State: Sendable {
        var registry: NamespaceRegistry
        var etag: String?
        /// A fetch has ended (whatever it brought), or the service stopped.
        var fetchEnded = false
        /// Callers of ``firstFetch()`` waiting for the first fetch to end.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Reads this app version's cached document, if any; fetches nothing before ``start()``.
    /// - Parameters:
    ///   - defaults: the app's local defaults for business namespaces (`hermes` has a built-in one).
    ///   - fetcher: `nil` when the app has no configuration URL: the local configuration is all there is.
    ///   - refreshInterval: time between two fetches after the first.
    init(
        defaults: [String: NamespaceConfiguration], cache: ConfigurationCache, fetcher: ConfigurationFetcher?,
        refreshInterval: Duration, clock: MonotonicClock, logger: Logger
    ) {
        var registry = NamespaceRegistry(registered: defaults)
        let cached = cache.load()
        if let cached { _ = registry.apply(cached.document) }
        state = Locked(State(registry: registry, etag: cached?.etag))
        self.cache = cache
        self.fetcher = fetcher
        self.refreshInterval = refreshInterval
        self.clock = clock
        self.logger = logger
    }

    // MARK: - Asking

    /// The configuration `namespace` runs under now, or `nil` when nothing configures it.
    func configuration(for namespace: String) -> NamespaceConfiguration? {
        state.withLock { $0.registry.configuration(for: namespace) }
    }

    /// The configuration `namespace` runs under now as `send` reads it, or `nil` when nothing
    /// configures it: one reference, taken on every record.
    func sendRules(for namespace: String) -> SendRules? {
        state.withLock { $0.registry.sendRules(for: namespace) }
    }

    /// Every namespace that has a configuration.
    var namespaces: Set<String> {
        state.withLock { $0.registry.namespaces }
    }

    /// The revision of the document in force (0: built-in and local defaults only).
    var revision: Int {
        state.withLock { $0.registry.revision }
    }

    // MARK: - Refreshing

    /// Fetches now, then every refresh interval, until ``shutdown()``; does nothing without a
    /// configuration URL. Returns at once.
    func start() {
        guard fetcher != nil else { return }
        let first = clock.now() + refreshInterval
        background.spawn { await self.refreshPeriodically(from: first) }
    }

    /// Stops the periodic refresh and waits for it to end; ``firstFetch()`` callers return.
    func shutdown() async {
        endFetch()
        await background.cancelAll()
    }

    /// Deletes the cached documents of every app version (erasure). The configuration in force
    /// stays; the next fetch asks without an ETag, so it brings the whole document and caches it.
    func deleteCache() throws {
        state.withLock { $0.etag = nil }
        try cache.deleteAll()
    }

    /// Fetches the document once (with the ETag in force) and applies it: the registry, the
    /// cache, then the observer. A 304 or a failure keeps the configuration in force.
    /// - Returns: what the fetch brought.
    @discardableResult
    func refresh() async -> ConfigurationFetcher.Outcome {
        guard let fetcher else { return .failed("no configuration URL") }
        let outcome = await fetcher.fetch(etag: state.withLock { $0.etag })
        switch outcome {
        case .updated(let document, let etag, let adjustments):
            for adjustment in adjustments { logger.warning("hermes: configuration clamped: \(adjustment)") }
            let changed = state.withLock { state in
                state.etag = etag
                return state.registry.apply(document)
            }
            do {
                try cache.save(document, etag: etag)
            } catch {
                logger.warning("hermes: cannot cache the configuration", metadata: ["error": "\(error)"])
            }
            logger.info("hermes: configuration applied", metadata: ["revision": "\(document.revision)", "changed": "\(changed.sorted())"])
            await applyObserver.withLock { $0 }?(changed)
        case .notModified:
            break
        case .failed(let reason):
            logger.warning("hermes: keeping the configuration in force: \(reason)")
        }
        endFetch()
        return outcome
    }

    /// Fetches now, then at `next`, `next + interval`, … until cancelled.
    private func refreshPeriodically(from next: Duration) async {
        var deadline = next
        while !Task.isCancelled {
            await refresh()
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            deadline += refreshInterval
        }
    }

    /// Returns once a fetch has ended (applied, 304 or failed), or the service has stopped.
    func firstFetch() async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.fetchEnded {
                    continuation.resume()
                } else {
                    state.waiters.append(continuation)
                }
            }
        }
    }

    private func endFetch() {
        let waiters = state.withLock { state in
            state.fetchEnded = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    // MARK: - The server's word for start-up housekeeping

    /// The configurations start-up housekeeping decides with (specification §5), and whether they
    /// are the server's word: this version's document (cached or fetched), else the one the
    /// previous app version cached, else the first fetched one (this waits for the first fetch
    /// to end). Without a configuration URL the local configuration is the word. When a fetch
    /// brought nothing and no version cached a document, `isServerWord` is false.
    func housekeepingConfigurations() async -> (configurations: NamespaceRegistry, isServerWord: Bool) {
        let current = state.withLock { $0.registry }
        if current.document != nil || fetcher == nil { return (current, true) }
        if let previous = cache.loadPreviousVersion() {
            var configurations = current
            _ = configurations.apply(previous)
            return (configurations, true)
        }
        await firstFetch()
        let fetched = state.withLock { $0.registry }
        return (fetched, fetched.document != nil)
    }
}
