import Clocks
import Foundation
import GRDB
@testable import Hermes
import HermesTestEnvironment
import HermesTestKit
import HermesWire
import Logging

/// A temporary storage folder, a scripted network, a test clock and a settable wall clock,
/// and helpers to read what the store really holds.
final class Harness: Sendable {
    let environment = TestEnvironment(prefix: "hermes-tests")
    let transport: InMemoryTransport

    static let jz = NamespaceConfiguration(monitorList: [MonitorItem(type: "pay"), MonitorItem(type: "view")])

    /// The built-in `hermes` configuration with no `flushCount` or realtime trigger, so that
    /// only the test starts upload rounds.
    static let quietHermes: NamespaceConfiguration = {
        var configuration = NamespaceConfiguration.hermesDefault
        configuration.flushCount = 10_000
        for index in configuration.monitorList.indices { configuration.monitorList[index].isRealtime = false }
        return configuration
    }()

    init(transport: InMemoryTransport = InMemoryTransport { _ in TransportResponse(status: 304) }) {
        self.transport = transport
    }

    /// The client's storage folder.
    var directory: URL { environment.directory }
    /// The clock of the client's timers.
    var clock: TestClock<Duration> { environment.clock }
    /// Milliseconds since 1970 on the client's wall clock.
    var now: Int64 { environment.now }

    func advanceWallClock(by milliseconds: Int64) {
        environment.advanceWallClock(by: milliseconds)
    }

    func configuration(
        version: String = "1.2.0",
        defaults: [String: NamespaceConfiguration] = ["JZ": Harness.jz],
        configURL: URL? = nil,
        transport: (any Transport)? = nil,
        memoryBufferLimit: Int = 10_000,
        network: any NetworkMonitor = StaticNetworkMonitor(.unmetered),
        startDelay: Duration = .seconds(3),
        healthInterval: Duration? = nil
    ) -> HermesClient.Configuration {
        var configuration = HermesClient.Configuration(
            storageDirectory: directory,
            app: .init(name: "Demo", version: version, build: "42"),
            configURL: configURL,
            collectorURL: URL(string: "http://127.0.0.1:9"),
            credentials: .init(appKey: "test-key", wireFormat: .v2(try! AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1))),
            namespaceDefaults: defaults,
            memoryBufferLimit: memoryBufferLimit,
            device: DeviceInfo(osName: "TestOS", osVersion: "1.0", model: "Tester"),
            uploadStartDelay: startDelay,
            networkMonitor: network,
            transport: transport ?? self.transport,
            clock: clock,
            wallClock: { [self] in self.now },
            randomSeed: 7
        )
        // Off unless a test asks: an `sdkHealth` record would join the records tests count.
        configuration.healthInterval = healthInterval
        return configuration
    }

    func client(
        version: String = "1.2.0",
        defaults: [String: NamespaceConfiguration] = ["JZ": Harness.jz],
        configURL: URL? = nil,
        memoryBufferLimit: Int = 10_000,
        transport: (any Transport)? = nil,
        network: any NetworkMonitor = StaticNetworkMonitor(.unmetered),
        startDelay: Duration = .seconds(3),
        healthInterval: Duration? = nil
    ) throws -> HermesClient {
        try HermesClient(
            configuration: configuration(
                version: version, defaults: defaults, configURL: configURL, transport: transport,
                memoryBufferLimit: memoryBufferLimit, network: network, startDelay: startDelay, healthInterval: healthInterval),
            logger: Logger(label: "hermes.tests")
        )
    }

    /// A client whose `hermes` namespace starts no round on its own and whose JZ namespace
    /// runs under `jz`.
    func quietClient(
        jz: NamespaceConfiguration = Harness.jz,
        transport: any Transport,
        network: any NetworkMonitor = StaticNetworkMonitor(.unmetered)
    ) throws -> HermesClient {
        try client(defaults: ["hermes": Harness.quietHermes, "JZ": jz], transport: transport, network: network)
    }

    /// Rows `client` holds claimed for a batch in flight (in memory), in both tables.
    func rowsInFlight(_ client: HermesClient) async throws -> Int {
        try await client.writer.perform { $0.inFlight.values.reduce(0) { $0 + $1.count } }
    }

    var databasePath: String { directory.appendingPathComponent(RecordStore.fileName).path }

    /// Reads the store's file directly, as another process would.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: databasePath)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Changes the store's file directly, as another process would.
    func write(_ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: databasePath)
        defer { try? queue.close() }
        try queue.write(body)
    }

    /// The rows of `table`, oldest first; none when the client never created its store.
    func rows(_ table: String) throws -> [Row] {
        guard FileManager.default.fileExists(atPath: databasePath) else { return [] }
        return try read { try Row.fetchAll($0, sql: "SELECT * FROM \(table) ORDER BY id") }
    }

    /// The stored meta of each row of `table`, parsed.
    func metas(_ table: String) throws -> [JSONValue] {
        try rows(table).map { try JSONValue(parsing: Array(($0["meta"] as String).utf8)) }
    }
}

extension SendOutcome {
    var code: HermesError.Code? { error?.code }
}
