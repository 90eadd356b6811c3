public import Foundation
public import HermesWire
public import Logging

/// The Hermes SDK: accepts records, stores them durably, and (with the upload engine) reports
/// them to the collector under the rules the server sets per namespace.
///
/// `send` never blocks: it validates, queues and returns. Disk work happens on the client's
/// own writer; configuration is fetched in the background.
///
/// ```swift
/// let client = try HermesClient(configuration: .init(
///     storageDirectory: dir, app: .init(name: "Demo", version: "1.2.0", build: "42"),
///     configURL: url, credentials: credentials))
/// client.start()
/// client.send(type: "appCrash", meta: ["signal": "SIGSEGV"], payload: stack)
/// client.send(type: "pay", prefix: "JZ", meta: ["amount": 12])
/// try await client.flush()
/// await client.shutdown()
/// ```
public final class HermesClient: Sendable {
    /// The SDK's version, sent as `SDK_VERSION`.
    public static let sdkVersion = "0.1.0"

    let configuration: Configuration
    let logger: Logger
    let writer: StoreWriter
    let ledger = LossLedger()
    let shutdownHooks = ShutdownHooks()
    private let builder: RecordBuilder
    private let reportIDs = ReportIDGenerator()
    private let cache: ConfigurationCache
    private let fetcher: ConfigurationFetcher?
    private let clock: MonotonicClock
    private let state: Locked<State>
    let engine: UploadEngine

    private struct State {
        var registry: NamespaceRegistry
        var etag: String?
        var lifecycle = Lifecycle.created
        var throttle = RealtimeThrottle()
        var random: SplitMix64
        var tasks: [Task<Void, Never>] = []
    }

    private enum Lifecycle {
        case created, started, shutDown
    }

    /// Creates a client. Reads the cached configuration and the device id; opens nothing else.
    /// - Parameters:
    ///   - configuration: storage, app identity, configuration URL, credentials and edges.
    ///   - logger: where Hermes logs (each rejected record once).
    /// - Throws: ``HermesError/Code/invalidConfiguration`` for an empty app name or version.
    public init(configuration: Configuration, logger: Logger = Logger(label: "hermes")) throws {
        guard !configuration.app.name.isEmpty, !configuration.app.version.isEmpty else {
            throw HermesError(.invalidConfiguration, "the app name and version must not be empty")
        }
        self.configuration = configuration
        self.logger = logger
        self.builder = RecordBuilder(
            app: configuration.app, device: configuration.device,
            deviceID: DeviceIdentity.load(in: configuration.storageDirectory, logger: logger)
        )
        self.cache = ConfigurationCache(storageDirectory: configuration.storageDirectory, appVersion: configuration.app.version)
        self.fetcher = configuration.configURL.map {
            ConfigurationFetcher(url: $0, appKey: configuration.credentials.appKey, transport: configuration.transport)
        }
        self.clock = Self.monotonic(configuration.clock)

        var registry = NamespaceRegistry(registered: configuration.namespaceDefaults)
        let cached = cache.load()
        if let cached { _ = registry.apply(cached.document) }
        var seed = configuration.randomSeed ?? 0
        if configuration.randomSeed == nil {
            var system = SystemRandomNumberGenerator()
            seed = system.next()
        }
        let state = Locked(State(registry: registry, etag: cached?.etag, random: SplitMix64(seed: seed)))
        self.state = state
        let configurationFor: @Sendable (String) -> NamespaceConfiguration? = { namespace in
            state.withLock { $0.registry.configuration(for: namespace) }
        }
        let writer = StoreWriter(
            directory: configuration.storageDirectory, bufferLimit: configuration.memoryBufferLimit,
            logger: logger, wallClock: configuration.wallClock,
            cacheLimit: { configurationFor($0)?.maxCacheCount },
            ledger: ledger
        )
        self.writer = writer
        let engine = UploadEngine(
            context: UploadContext(
                writer: writer, ledger: ledger, transport: configuration.transport,
                wireFormat: configuration.credentials.wireFormat, appKey: configuration.credentials.appKey,
                deviceID: builder.deviceID, wallClock: configuration.wallClock, logger: logger,
                requestTimeout: configuration.requestTimeout
            ),
            configuration: configurationFor,
            configuredNamespaces: { state.withLock { $0.registry.namespaces } },
            defaultEndpoint: configuration.defaultCollectorURL,
            monitor: configuration.networkMonitor, clock: clock,
            startDelay: configuration.uploadStartDelay, seed: seed ^ 0x5EED
        )
        self.engine = engine
        writer.commitObserver.withLock { $0 = { engine.committed($0) } }
    }

    private static func monotonic<C: Clock<Duration>>(_ clock: C) -> MonotonicClock {
        MonotonicClock(clock)
    }

    // MARK: - Lifecycle

    /// Starts background work and returns at once: start-up housekeeping of the store, and
    /// the configuration fetch with its periodic refresh. Calling it again does nothing.
    public func start() {
        let starting = state.withLock { state in
            guard state.lifecycle == .created else { return false }
            state.lifecycle = .started
            state.tasks.append(Task { await self.housekeep() })
            if fetcher != nil {
                let firstRefresh = clock.now() + configuration.configRefreshInterval
                state.tasks.append(Task { await self.refreshPeriodically(from: firstRefresh) })
            }
            return true
        }
        if starting { engine.start() }
    }

    /// Returns once every record accepted before the call is durable on disk.
    /// - Throws: ``HermesError/Code/storeUnavailable`` when the store cannot be written now;
    ///   the records wait in memory and are retried.
    public func flush() async throws {
        try await writer.flush()
    }

    /// Flushes, stops every timer and task, and closes the store; nothing runs after it
    /// returns. Later `send` calls are rejected with ``HermesError/Code/shutDown``.
    public func shutdown() async {
        await shutdownHooks.run()
        let tasks: [Task<Void, Never>] = state.withLock { state in
            state.lifecycle = .shutDown
            defer { state.tasks.removeAll() }
            return state.tasks
        }
        tasks.forEach { $0.cancel() }
        for task in tasks { await task.value }
        await engine.shutdown()
        let unsaved = await writer.close()
        if unsaved > 0 {
            logger.error("hermes: shut down with records the store could not take", metadata: ["records": "\(unsaved)"])
        }
    }

    /// Runs an upload round in every namespace that is configured or holds records, and
    /// returns when all have finished; a round already running is waited for first.
    /// - Returns: each namespace's summary: records sent, bytes, outcome.
    @discardableResult
    public func upload() async -> [String: UploadSummary] {
        await engine.uploadAll()
    }

    // MARK: - Sending

    /// Sends a record to the built-in `hermes` monitoring namespace.
    /// - Parameters:
    ///   - type: the monitor type, e.g. `appCrash`; it must be in the namespace's `monitorList`.
    ///   - meta: the record's fields; Hermes adds the common fields (specification §4).
    ///   - payload: a large attachment such as a stack dump, stored in the payload table.
    /// - Returns: accepted with the `REPORT_ID`, or rejected with the reason (also logged once).
    @discardableResult
    public func send(type: String, meta: [String: JSONValue], payload: Data? = nil) -> SendOutcome {
        submit(.init(type: type, namespace: ConfigurationDocument.hermesNamespace, isBusiness: false, meta: meta, payload: payload))
    }

    /// Sends a business record to the namespace named by `prefix`; its `MONITOR_TYPE` is
    /// `"<prefix>-<type>"` and `IS_BIZ` is true.
    /// - Parameters:
    ///   - type: the record type, which must be in the namespace's `monitorList`.
    ///   - prefix: the business line's namespace, e.g. `JZ`.
    ///   - meta: the record's fields.
    ///   - payload: an optional attachment.
    /// - Returns: accepted with the `REPORT_ID`, or rejected with the reason (also logged once).
    @discardableResult
    public func send(type: String, prefix: String, meta: [String: JSONValue], payload: Data? = nil) -> SendOutcome {
        submit(.init(type: type, namespace: prefix, isBusiness: true, meta: meta, payload: payload))
    }

    /// A handle on one namespace: `hermes` for monitoring, or a business prefix.
    public func namespace(_ name: String) -> Namespace {
        Namespace(name: name, client: self)
    }

    func submit(_ input: RecordBuilder.Input) -> SendOutcome {
        let (configuration, draw, isShutDown) = state.withLock { state in
            (state.registry.configuration(for: input.namespace),
             Double(state.random.next() >> 11) * 0x1p-53,
             state.lifecycle == .shutDown)
        }
        if isShutDown { return reject(HermesError(.shutDown, "the client was shut down"), input) }
        let result = builder.build(input, configuration: configuration, draw: { draw }, now: self.configuration.wallClock(), reportID: reportIDs.next())
        switch result {
        case .failure(let error):
            return reject(error, input)
        case .success(let (record, isRealtime)):
            if let error = writer.enqueue(record) { return reject(error, input) }
            if isRealtime {
                let now = clock.now()
                if state.withLock({ $0.throttle.shouldTrigger(input.namespace, now: now) }) {
                    engine.trigger(input.namespace, .realtime)
                }
            }
            return .accepted(reportID: record.reportID)
        }
    }

    private func reject(_ error: HermesError, _ input: RecordBuilder.Input) -> SendOutcome {
        let level: Logger.Level = error.code == .sampledOut ? .debug : .warning
        logger.log(level: level, "hermes: record rejected", metadata: [
            "namespace": "\(input.namespace)", "type": "\(input.type)", "code": "\(error.code)", "reason": "\(error.message)",
        ])
        return .rejected(error)
    }

    // MARK: - Configuration

    /// The configuration `namespace` runs under now, or `nil` when nothing configures it.
    public func configuration(for namespace: String) -> NamespaceConfiguration? {
        state.withLock { $0.registry.configuration(for: namespace) }
    }

    /// The revision of the configuration document in force (0: built-in only).
    public var configurationRevision: Int {
        state.withLock { $0.registry.revision }
    }

    /// Fetches the configuration once and applies it; a failure keeps the configuration in force.
    /// - Returns: what the fetch brought.
    @discardableResult
    func refreshConfiguration() async -> ConfigurationFetcher.Outcome {
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
            engine.reschedule(changed)
        case .notModified:
            break
        case .failed(let reason):
            logger.warning("hermes: keeping the configuration in force: \(reason)")
        }
        return outcome
    }

    /// Fetches now, then at `next`, `next + interval`, … until cancelled.
    private func refreshPeriodically(from next: Duration) async {
        var deadline = next
        while !Task.isCancelled {
            await refreshConfiguration()
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            deadline += configuration.configRefreshInterval
        }
    }

    // MARK: - Store maintenance

    private func housekeep() async {
        let rules = state.withLock { state in
            state.registry.namespaces.reduce(into: [String: HousekeepingRule]()) { rules, name in
                guard let configuration = state.registry.configuration(for: name) else { return }
                rules[name] = HousekeepingRule(
                    isUpdateClear: configuration.isUpdateClear,
                    expirationDays: configuration.expirationDay,
                    maxBodyBytes: configuration.maxBodyBytes
                )
            }
        }
        let now = configuration.wallClock()
        let version = configuration.app.version
        do {
            let losses = try await writer.perform { store in
                let losses = try store.housekeep(rules, now: now, appVersion: version)
                try store.reclaimFreePages()
                return losses
            }
            for (namespace, reasons) in losses {
                for (reason, count) in reasons { ledger.record(count, namespace: namespace, reason: reason) }
            }
        } catch {
            logger.error("hermes: start-up housekeeping failed; it runs again at the next start", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - Diagnostics

    /// What Hermes lost and holds: records that left the store without reaching the collector,
    /// per namespace and reason, and records waiting in memory for the store.
    public func diagnostics() -> Diagnostics {
        Diagnostics(losses: ledger.snapshot, bufferedRecords: writer.backlog, quarantinedFiles: writer.quarantinedFiles)
    }
}
