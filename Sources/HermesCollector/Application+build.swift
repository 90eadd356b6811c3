import HermesWire
public import Hummingbird
public import Logging
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import ServiceLifecycle

/// Builds the collector: its routes over `storage`, ready to run as a `Service` or to test with
/// `app.test(.router)`.
///
/// The configuration document served is the one saved in `storage`, or
/// ``CollectorConfiguration/initialConfiguration`` when none was saved yet. Beside the server it
/// runs an ``AlertEvaluator`` over `storage`'s alert rules (crash and record counts from
/// `storage`; no rejection counts or crash groups yet).
///
/// To listen on any free port, set ``CollectorConfiguration/port`` to 0 and learn the port
/// from `onServerRunning`:
///
/// ```swift
/// let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
/// let app = try await buildApplication(
///     configuration: configuration, storage: try SQLiteCollectorStorage.inMemory(), logger: logger,
///     onServerRunning: { port in continuation.yield(port) }
/// )
/// let group = ServiceGroup(services: [app], logger: logger)
/// async let running: Void = group.run()
/// let port = await ports.first { _ in true }
/// // … point the SDK at http://127.0.0.1:\(port) …
/// await group.triggerGracefulShutdown()
/// try await running
/// ```
/// - Parameters:
///   - configuration: where to listen, the app keys, the admin token and the keys.
///   - storage: where records and the configuration document live.
///   - sync: record sync (`POST /v1/sync`, behind the app key), or `nil` to serve none.
///   - metrics: the counters `GET /metrics` serves; pass your own to read them in process.
///   - logger: where the collector logs; it never logs keys, tokens or record contents.
///   - onServerRunning: called with the bound port once the server listens.
/// - Returns: the application.
/// - Throws: ``CollectorError/Code/storageFailed`` if the saved configuration cannot be read;
///   ``CollectorError/Code/invalidTLS`` if ``CollectorConfiguration/tls`` names files that are
///   not a certificate chain and its key.
public func buildApplication(
    configuration: CollectorConfiguration,
    storage: some CollectorStorage,
    sync: SyncServer? = nil,
    metrics: CollectorMetrics = CollectorMetrics(),
    logger: Logger,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws(CollectorError) -> some ApplicationProtocol {
    let live = try await LiveConfiguration.load(storage: storage, initial: configuration.initialConfiguration, logger: logger)
    let router = Router()
    router.add(middleware: RequestObservingMiddleware(metrics: metrics))
    let rejections = RejectionHistory(wallClock: configuration.wallClock)
    router.add(middleware: RejectionMiddleware(metrics: metrics, history: rejections))
    OperationsRoutes(metrics: metrics, storage: storage).register(on: router)
    ConfigRoutes(live: live).register(on: router)
    if configuration.console.isEnabled {
        ConsoleRoutes(
            storage: storage, live: live, sync: sync, metrics: metrics, settings: configuration.console, adminToken: configuration.adminToken,
            wallClock: configuration.wallClock, logger: logger
        ).register(on: router)
    }
    // Routes by who may call them: a token whose scopes allow them, or a known app key, checked
    // before any handler.
    func bearer(_ scope: TokenScope) -> RouterGroup<BasicRequestContext> {
        router.group().add(middleware: AuthenticationMiddleware.bearer(scope, adminToken: configuration.adminToken, tokens: configuration.tokens))
    }
    AdminRoutes(live: live, maxBodyBytes: configuration.maxBodyBytes, wallClock: configuration.wallClock, logger: logger)
        .register(on: bearer(.configure))
    let readers = bearer(.read)
    EventRoutes(storage: storage, wallClock: configuration.wallClock).register(on: readers)
    EventExportRoute(storage: storage, logger: logger).register(on: readers)
    ErasureRoutes(storage: storage, logger: logger).register(on: bearer(.admin))
    if let sync {
        SyncDeviceRoutes(storage: sync.storage, maxBodyBytes: configuration.maxBodyBytes, wallClock: configuration.wallClock, logger: logger)
            .register(on: bearer(.admin))
    }
    let rates = configuration.appKeyRequestsPerSecond.map { AppKeyRateLimiter(rate: $0) }
    let apps = router.group().add(
        middleware: AuthenticationMiddleware.appKey(
            in: configuration.appKeys, tokens: configuration.tokens, namespaces: configuration.appKeyNamespaces, limiter: rates,
            metrics: metrics,
            wallClock: configuration.wallClock))
    let budget = RequestBudget(capacity: configuration.maxBytesInFlight)
    UploadRoutes(
        storage: storage,
        maxBodyBytes: configuration.maxBodyBytes,
        maxBlockBytes: configuration.maxBlockBytes,
        live: live,
        budget: budget,
        ingestor: PacketIngestor(
            decoder: PacketDecoder(keyring: configuration.keyring, maximumBlockBytes: configuration.maxBlockBytes),
            recordRule: configuration.recordRule
        ),
        metrics: metrics,
        wallClock: configuration.wallClock,
        logger: logger
    ).register(on: apps)
    if let sync {
        SyncRoutes(
            server: sync, maxBodyBytes: configuration.maxBodyBytes, budget: budget, metrics: metrics, wallClock: configuration.wallClock,
            logger: logger
        ).register(on: apps)
    }
    var services: [any Service] = [
        ConfigurationWatcher(live: live, storage: storage, logger: logger), CrashGroupingService(storage: storage, logger: logger),
        AlertEvaluator(
            storage: storage,
            signals: StorageAlertSignals(
                storage: storage, rejectionCount: { rejections.count(since: $0) },
                newCrashGroups: { since in
                    try await storage.crashGroups(since: since, until: nil, limit: 100).filter { $0.firstSeen >= since }.map {
                        AlertCrashGroup(signature: $0.signature, title: $0.title)
                    }
                }),
            delivery: WebhookDelivery(wallClock: configuration.wallClock), interval: configuration.console.alertInterval,
            wallClock: configuration.wallClock, logger: logger),
    ]
    if let days = configuration.retentionDays {
        services.append(RetentionService(storage: storage, days: days, metrics: metrics, wallClock: configuration.wallClock, logger: logger))
    }
    if let sync, let days = sync.rules.historyDays {
        services.append(SyncHistoryService(storage: sync.storage, days: days, wallClock: configuration.wallClock, logger: logger))
    }
    let limiter = ConnectionLimiter(
        maximum: ConnectionLimiter.openFileCeiling(below: configuration.maxConnections), maximumPerAddress: configuration.maxConnectionsPerAddress
    )
    let timeouts = ConnectionGuard.Timeouts(head: .init(configuration.headTimeout), bodyRead: .init(configuration.bodyReadTimeout))
    let http1Configuration = HTTP1Channel.Configuration(
        additionalChannelHandlers: [ConnectionGuard(limiter: limiter, timeouts: timeouts, metrics: metrics)])
    let tls = try configuration.tls?.loaded()
    let server = HTTPServerBuilder { responder in
        let channel = HTTP1Channel(responder: responder, configuration: http1Configuration)
        guard let tls else { return EventLoopBoundChannel(base: channel) }
        do {
            return EventLoopBoundChannel(base: try TLSChannel(channel, tlsConfiguration: tls))
        } catch {
            throw CollectorError(.invalidTLS, "cannot serve TLS: \(error)")
        }
    }
    let scheme = configuration.tls == nil ? "http" : "https"
    return Application(
        router: router,
        server: server,
        // A deep accept queue: connections refused past the limits are accepted and closed at once,
        // so a flood of them does not make others wait on a full queue.
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "hermes-collector", backlog: 4_096),
        services: services,
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.info("collector listening", metadata: ["address": "\(scheme)://\(configuration.host):\(port)"])
            await onServerRunning(port)
        },
        logger: logger
    )
}
