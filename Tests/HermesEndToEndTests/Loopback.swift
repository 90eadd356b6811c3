import Foundation
@testable import Hermes
import HermesCollector
import HermesTestEnvironment
import HermesTestKit
import HermesWire
import Logging

/// A real collector on 127.0.0.1 with a temporary SQLite store, and real clients pointed at it.
final class Loopback: Sendable {
    static let appKey = "e2e-app"
    static let adminToken = "e2e-admin"
    static let key: [UInt8] = Array(repeating: 0x42, count: 16)
    static let cipher = try! AESGCMCipher(key: key, keyID: 3)

    let environment: TestEnvironment
    let storage: SQLiteCollectorStorage
    let logger: Logger = {
        var logger = Logger(label: "hermes.e2e")
        logger.logLevel = .error
        return logger
    }()

    init() throws {
        let environment = TestEnvironment(prefix: "hermes-e2e")
        try FileManager.default.createDirectory(at: environment.directory, withIntermediateDirectories: true)
        storage = try SQLiteCollectorStorage(path: environment.directory.appendingPathComponent("collector.sqlite").path)
        self.environment = environment
    }

    /// The folder of the collector's store and the clients' storage.
    var directory: URL { environment.directory }

    static let document: ConfigurationDocument = {
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.flushCount = 10_000
        let business = NamespaceConfiguration(
            monitorList: [MonitorItem(type: "pay"), MonitorItem(type: "view"), MonitorItem(type: "appCrash", isUploadPayload: true)],
            flushCount: 10_000
        )
        return ConfigurationDocument(revision: 1, namespaces: ["hermes": hermes, "JZ": business, "KX": business])
    }()

    /// Starts a collector on `port` (0: any free port).
    func startCollector(port: Int = 0) async throws -> CollectorServer {
        try await CollectorServer.start(
            configuration: CollectorConfiguration(
                port: port, appKeys: [Self.appKey], adminToken: Self.adminToken,
                keyring: Keyring([Self.cipher]), initialConfiguration: Self.document
            ),
            storage: storage, logger: logger
        )
    }

    /// A client of the collector on `port`, with its own storage folder; its `sdkHealth`
    /// records are off unless `healthInterval` is given (they would join the records tests count).
    func client(
        port: Int, name: String = "app", transport: any Transport = PlatformTransport(), healthInterval: Duration? = nil
    ) throws -> HermesClient {
        var configuration = HermesClient.Configuration(
            storageDirectory: directory.appendingPathComponent(name),
            app: .init(name: "E2E", version: "1.0.0", build: "1"),
            configURL: URL(string: "http://127.0.0.1:\(port)/v1/config"),
            credentials: .init(appKey: Self.appKey, wireFormat: .v2(Self.cipher)),
            uploadStartDelay: .seconds(3_600),
            requestTimeout: .seconds(5),
            transport: transport
        )
        configuration.healthInterval = healthInterval
        return try HermesClient(configuration: configuration, logger: logger)
    }

    /// The REPORT_IDs the collector stored in `namespace`.
    func storedIDs(_ namespace: String) async throws -> [String] {
        try await storage.events(EventQuery(namespace: namespace, limit: EventQuery.maximumLimit)).map(\.reportID)
    }

    /// An HTTP request to the collector with the real URLSession transport.
    func request(_ method: String, port: Int, path: String, headers: [String: String] = [:], body: [UInt8] = []) async throws -> TransportResponse {
        try await URLSessionTransport().send(
            TransportRequest(method: method, url: URL(string: "http://127.0.0.1:\(port)\(path)")!, headers: headers, body: body))
    }
}
