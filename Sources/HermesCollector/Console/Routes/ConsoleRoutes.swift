import Hummingbird
import Logging

/// The web console under `/console`: its page and assets, and its JSON API under
/// `/console/api`, every answer with the console's security headers
/// (``ConsoleHeadersMiddleware``), every API route but sign-in behind a session (``ConsoleGate``).
struct ConsoleRoutes<Storage: CollectorStorage> {
    let storage: Storage
    let live: LiveConfiguration
    let sync: SyncServer?
    let metrics: CollectorMetrics
    let settings: ConsoleSettings
    let adminToken: String
    let wallClock: @Sendable () -> Int64
    let logger: Logger

    func register(on router: Router<BasicRequestContext>) {
        let console = router.group().add(middleware: ConsoleHeadersMiddleware())
        let gate = ConsoleGate(storage: storage, settings: settings, wallClock: wallClock)
        ConsoleAssetRoutes().register(on: console)
        ConsoleSessionRoutes(gate: gate, adminToken: adminToken, logger: logger).register(on: console)
        ConsoleUserRoutes(gate: gate, logger: logger).register(on: console)
        ConsoleRecordRoutes(gate: gate, storage: storage).register(on: console)
        ConsoleTailRoute(gate: gate, storage: storage).register(on: console)
        ConsoleNamespaceRoutes(gate: gate, live: live, logger: logger).register(on: console)
        ConsoleInsightRoutes(gate: gate, storage: storage, metrics: metrics).register(on: console)
        ConsoleCrashRoutes(gate: gate, storage: storage).register(on: console)
        ConsoleSyncRoutes(gate: gate, sync: sync).register(on: console)
        ConsoleAlertRoutes(gate: gate, storage: storage, delivery: WebhookDelivery(wallClock: wallClock), logger: logger).register(on: console)
    }
}
