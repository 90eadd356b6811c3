import Atomics
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
    public static let sdkVersion = HermesVersion.current

    let configuration: Configuration
    let logger: Logger
    let writer: StoreWriter
    let ledger = LossLedger()
    /// The 2xx upload answers that acknowledged nothing, per namespace.
    let unacknowledged: UnacknowledgedAnswers
    let shutdownHooks = ShutdownHooks()
    /// The configuration in force; the upload engine and the store writer ask it too.
    let configurationService: ConfigurationService
    /// Identity, consent, global properties and hooks, as `send` reads them.
    let profiles: ProfileStore
    let sessions: SessionController
    private let reportIDs = ReportIDGenerator()
    /// ``Configuration/wallClock``, read by `send` without copying the whole configuration.
    private let wallClock: @Sendable () -> Int64
    private let random: SharedRandom
    private let refusals = RefusalRun()
    /// Read by `send` without a lock; changed only under `tasks`' lock.
    private let lifecycle = ManagedAtomic<Lifecycle>(.created)
    /// Start-up housekeeping, cancelled and awaited by `shutdown()`.
    private let tasks = Locked<[Task<Void, Never>]>([])
    let engine: UploadEngine
    /// The `sdkHealth` records; `nil` when ``Configuration/healthInterval`` turns them off.
    let health: HealthReporter?
    /// The injected clock, as the timers read it.
    let monotonicClock: MonotonicClock
    /// This run's marker, once started with ``MonitoringOptions/abnormalExits`` on.
    let runRecorder = Locked<RunRecorder?>(nil)

    private enum Lifecycle: UInt8, AtomicValue {
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
        wallClock = configuration.wallClock
        self.logger = logger
        let builder = RecordBuilder(
            app: configuration.app, device: configuration.device,
            deviceID: DeviceIdentity.load(in: configuration.storageDirectory, logger: logger)
        )
        let profiles = ProfileStore(
            base: builder, file: IdentityFile(storageDirectory: configuration.storageDirectory),
            initialConsent: configuration.initialConsent, sessionID: RecordIdentity.newID(), logger: logger
        )
        self.profiles = profiles
        let clock = Self.monotonic(configuration.clock)
        sessions = SessionController(clock: clock, timeout: configuration.sessionTimeout)
        let configurationService = ConfigurationService(
            defaults: configuration.namespaceDefaults,
            cache: ConfigurationCache(storageDirectory: configuration.storageDirectory, appVersion: configuration.app.version),
            fetcher: configuration.configURL.map {
                ConfigurationFetcher(
                    url: $0, appKey: configuration.credentials.appKey, deviceID: builder.deviceID, appVersion: configuration.app.version,
                    transport: configuration.transport)
            },
            refreshInterval: configuration.configRefreshInterval, clock: clock, logger: logger
        )
        self.configurationService = configurationService
        var seed = configuration.randomSeed ?? 0
        if configuration.randomSeed == nil {
            var system = SystemRandomNumberGenerator()
            seed = system.next()
        }
        self.random = SharedRandom(seed: seed)
        let writer = StoreWriter(
            directory: configuration.storageDirectory,
            journal: Journal.Options(limitBytes: configuration.journalLimitBytes, memoryLimit: configuration.memoryBufferLimit),
            fileProtection: configuration.fileProtection,
            logger: logger, wallClock: configuration.wallClock,
            configurationService: configurationService,
            ledger: ledger
        )
        self.writer = writer
        let unacknowledged = UnacknowledgedAnswers(logger: logger)
        self.unacknowledged = unacknowledged
        let engine = UploadEngine(
            context: UploadContext(
                writer: writer, ledger: ledger, transport: configuration.transport,
                wireFormat: configuration.credentials.wireFormat, appKey: configuration.credentials.appKey,
                deviceID: builder.deviceID, wallClock: configuration.wallClock, logger: logger,
                requestTimeout: configuration.requestTimeout,
                uploadsAllowed: { profiles.profile.settings.consent == .granted },
                acceptsUnacknowledgedSuccess: configuration.acceptsUnacknowledgedSuccess,
                unacknowledged: unacknowledged
            ),
            configurationService: configurationService,
            defaultEndpoint: configuration.defaultCollectorURL,
            monitor: configuration.networkMonitor, clock: clock,
            startDelay: configuration.uploadStartDelay, seed: seed ^ 0x5EED
        )
        self.engine = engine
        health = HealthReporter(interval: configuration.healthInterval, clock: clock)
        monotonicClock = clock
        writer.commitObserver.withLock { $0 = { engine.committed($0) } }
        // Weak: the engine holds the service, which would otherwise hold the engine.
        configurationService.applyObserver.withLock {
            $0 = { [weak engine] changed in
                engine?.reschedule(changed)
                await engine?.configurationRefreshed()
            }
        }
        shutdownHooks.add { [weak self] in self?.endSession() }
    }

    private static func monotonic<C: Clock<Duration>>(_ clock: C) -> MonotonicClock {
        MonotonicClock(clock)
    }

    // MARK: - Lifecycle

    /// Starts background work and returns at once: recovery of the records an earlier run left
    /// in the journal, start-up housekeeping of the store, then uploads (no upload round runs
    /// before housekeeping is done) and the `sdkHealth` records, and the configuration fetch
    /// with its periodic refresh.
    /// Housekeeping follows the server's configuration: this version's cached one, after an
    /// upgrade the previous version's, and on a device that never cached one it waits for the
    /// first fetch to end. Calling it again does nothing.
    public func start() {
        let starting = tasks.withLock { tasks in
            guard lifecycle.compareExchange(expected: .created, desired: .started, ordering: .acquiringAndReleasing).exchanged else { return false }
            tasks.append(
                Task {
                    guard await self.housekeep() else { return }
                    self.engine.ready()
                    self.startHealthReports()
                })
            return true
        }
        if starting {
            configurationService.start()
            writer.recover()
            engine.start()
            beginSession()
            startMonitoring()
        }
    }

    /// Returns once every record accepted before the call is durable on disk.
    /// - Throws: ``HermesError/Code/storeUnavailable`` when the store cannot be written now;
    ///   the records wait in memory and are retried.
    public func flush() async throws {
        try await writer.flush()
    }

    /// Flushes, stops every timer and task, and closes the store; nothing runs after it
    /// returns. Later `send` calls are rejected with ``HermesError/Code/shutDown``. A started
    /// client that lost records since its last `sdkHealth` record sends one more first.
    public func shutdown() async {
        await shutdownHooks.run()
        await finishHealthReports(started: lifecycle.load(ordering: .acquiring) == .started)
        let running = tasks.withLock { tasks in
            lifecycle.store(.shutDown, ordering: .releasing)
            defer { tasks.removeAll() }
            return tasks
        }
        running.forEach { $0.cancel() }
        if let unlogged = refusals.end() { logRefusalRunEnd(unlogged, resumed: false) }
        await configurationService.shutdown()  // also wakes housekeeping waiting for the first fetch
        for task in running { await task.value }
        await engine.shutdown()
        let unsaved = await writer.close()
        if unsaved > 0 {
            logger.error("hermes: shut down with records the store could not take", metadata: ["records": "\(unsaved)"])
        }
    }

    /// Runs an upload round in every namespace that is configured or holds records, and
    /// returns when all have finished; a round already running is waited for first. A namespace
    /// paused by a refusal (``UploadBlock``) tries once. Called before ``start()``, it runs no
    /// round (outcome `notStarted`); right after, it waits for start-up housekeeping.
    /// - Returns: each namespace's summary: records sent and rejected, bytes, outcome.
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
        submit(.init(type: type, namespace: RecordNamespace.monitoring, meta: meta, payload: payload))
    }

    /// Sends a record to the namespace named by `prefix`: for a business line (`JZ`) its
    /// `MONITOR_TYPE` is `"<prefix>-<type>"` and `IS_BIZ` is true; the prefix `hermes` names the
    /// monitoring namespace and sends exactly as `send(type:meta:payload:)`
    /// does (see `RecordNamespace`).
    /// - Parameters:
    ///   - type: the record type, which must be in the namespace's `monitorList`.
    ///   - prefix: the namespace, e.g. `JZ`; empty is refused (`emptyPrefix`).
    ///   - meta: the record's fields.
    ///   - payload: an optional attachment.
    /// - Returns: accepted with the `REPORT_ID`, or rejected with the reason (also logged once).
    @discardableResult
    public func send(type: String, prefix: String, meta: [String: JSONValue], payload: Data? = nil) -> SendOutcome {
        submit(.init(type: type, namespace: prefix, meta: meta, payload: payload))
    }

    /// A handle on one namespace: `hermes` for monitoring, or a business prefix.
    public func namespace(_ name: String) -> Namespace {
        Namespace(name: name, client: self)
    }

    func submit(_ input: RecordBuilder.Input) -> SendOutcome {
        // The hot path: two uncontended locks (the profile, the configuration), two atomics.
        if lifecycle.load(ordering: .acquiring) == .shutDown { return reject(HermesError(.shutDown, "the client was shut down"), input) }
        let profile = profiles.profile
        guard profile.settings.consent != .denied else { return .rejected(Self.consentDenied) }
        var input = input
        let hooks = profile.hooks(for: input.namespace)
        if !hooks.isEmpty, !input.apply(hooks) {
            return reject(HermesError(.droppedByHook, "a record hook dropped the record of type \(input.type)"), input)
        }
        let rules = configurationService.sendRules(for: input.namespace)
        let draw = random.nextUnit()
        let now = wallClock()
        let built: RecordBuilder.Built
        do {
            built = try profile.build(input, rules: rules, draw: { draw }, now: now, reportID: reportIDs.next(milliseconds: now))
        } catch {
            return reject(error, input)
        }
        if let error = writer.enqueue(built.record) { return reject(error, input) }
        if let unlogged = refusals.end() { logRefusalRunEnd(unlogged, resumed: true) }
        if built.isRealtime { engine.realtime(input.namespace) }
        return .accepted(reportID: built.record.reportID)
    }

    /// Not logged on `send`: consent changes are logged once, when they happen.
    private static let consentDenied = HermesError(.consentDenied, "the user denied consent: nothing is stored")

    func reject(_ error: HermesError, _ input: RecordBuilder.Input) -> SendOutcome {
        if error.code == .bufferFull, !refusals.refuse() { return .rejected(error) }
        let level: Logger.Level = error.code == .sampledOut || error.code == .droppedByHook ? .debug : .warning
        logger.log(
            level: level, "hermes: record rejected",
            metadata: [
                "namespace": "\(input.namespace)", "type": "\(input.type)", "code": "\(error.code)", "reason": "\(error.message)",
            ])
        return .rejected(error)
    }

    /// Logs the refusals for a full journal that were not logged one by one (``RefusalRun``).
    private func logRefusalRunEnd(_ unlogged: Int, resumed: Bool) {
        guard unlogged > 0 else { return }
        logger.warning(
            "hermes: more records were rejected while the journal was full",
            metadata: [
                "code": "\(HermesError.Code.bufferFull)", "records": "\(unlogged)",
                "until": "\(resumed ? "a record was accepted" : "shutdown")",
            ])
    }

    // MARK: - Configuration

    /// The configuration `namespace` runs under now, or `nil` when nothing configures it.
    public func configuration(for namespace: String) -> NamespaceConfiguration? {
        configurationService.configuration(for: namespace)
    }

    /// The revision of the configuration document in force (0: built-in only).
    public var configurationRevision: Int {
        configurationService.revision
    }

    /// Fetches the configuration once and applies it; a failure keeps the configuration in force.
    /// - Returns: what the fetch brought.
    @discardableResult
    func refreshConfiguration() async -> ConfigurationFetcher.Outcome {
        await configurationService.refresh()
    }

    // MARK: - Diagnostics

    /// What Hermes lost and holds: records that left the store without reaching the collector,
    /// per namespace and reason (and the collector's codes for the ones it rejected), records
    /// waiting in memory for the store, the namespaces whose uploads are paused, and the 2xx
    /// answers that acknowledged nothing.
    public func diagnostics() -> Diagnostics {
        Diagnostics(
            losses: ledger.snapshot, bufferedRecords: writer.backlog, quarantinedFiles: writer.quarantinedFiles,
            rejections: ledger.rejections, blocked: engine.blocks.snapshot, journalStalls: writer.journal.stalls,
            unacknowledged: unacknowledged.snapshot
        )
    }
}
