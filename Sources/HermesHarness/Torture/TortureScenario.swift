package import Foundation
package import Hermes
package import HermesWire

/// What a torture app sends: numbered records spread over `hermes` and two business
/// namespaces, one in thirty a crash with a stack payload. The number is the meta field `n`,
/// so the collector's table tells which records arrived and how often.
package enum TortureScenario {
    package static let namespaces = ["hermes", "JZ", "KX"]

    /// Every namespace uploads every second and after 100 pending records, in batches of 20
    /// rows, so that a run makes many requests to break.
    package static var document: ConfigurationDocument {
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.periodicTimerSecond = 1
        hermes.maxItem = 20
        return ConfigurationDocument(
            revision: 1,
            namespaces: [
                "hermes": hermes,
                "JZ": NamespaceConfiguration(periodicTimerSecond: 1, maxItem: 20, monitorList: [MonitorItem(type: "pay")]),
                "KX": NamespaceConfiguration(periodicTimerSecond: 1, maxItem: 20, monitorList: [MonitorItem(type: "view")]),
            ])
    }

    /// A client of the collector at `collector` storing in `directory`, with `document`'s
    /// namespaces as its defaults.
    package static func client(
        collector: URL, key: [UInt8], directory: URL, requestTimeout: Duration,
        document: ConfigurationDocument = TortureScenario.document, transport: any Transport = PlatformTransport()
    ) throws -> HermesClient {
        var configuration = HermesClient.Configuration(
            storageDirectory: directory,
            app: .init(name: "Torture", version: "1.0.0", build: "1"),
            configURL: collector.appendingPathComponent("v1/config"),
            credentials: .init(appKey: TortureCollector.appKey, wireFormat: .v2(try AESGCMCipher(key: key, keyID: TortureCollector.keyID))),
            namespaceDefaults: document.namespaces,
            uploadStartDelay: .milliseconds(200),
            requestTimeout: requestTimeout,
            transport: transport
        )
        // The tortures count the records they sent, one by one: no delivery-health records beside them.
        configuration.healthInterval = nil
        return try HermesClient(configuration: configuration, logger: TortureLog.quiet)
    }

    /// Sends record `n`; a poisoned one carries `"poison": true`, which the torture collector's
    /// record rule refuses (``TortureCollector``).
    /// - Returns: whether the client accepted it.
    @discardableResult
    package static func send(_ n: Int64, with client: HermesClient, poisoned: Bool = false) -> Bool {
        var meta: [String: JSONValue] = ["n": .int(n), "screen": "TortureViewController", "ms": .int(n % 700)]
        if poisoned { meta[poisonField] = true }
        let outcome: SendOutcome
        switch n % 3 {
        case 0 where n % 30 == 0:
            outcome = client.send(type: "appCrash", meta: meta, payload: Data((0..<4_096).map { UInt8(truncatingIfNeeded: Int64($0) &* 31 &+ n) }))
        case 0: outcome = client.send(type: "appLag", meta: meta)
        case 1: outcome = client.send(type: "pay", prefix: "JZ", meta: meta)
        default: outcome = client.send(type: "view", prefix: "KX", meta: meta)
        }
        return outcome.isAccepted
    }

    /// Uploads what the store at `directory` holds (at most 100 rounds), then shuts `client`
    /// down.
    /// - Returns: whether the store is empty.
    package static func drain(_ client: HermesClient, storage directory: URL) async throws -> Bool {
        for _ in 0..<100 where try rowsLeft(in: directory) > 0 {
            await client.upload()
        }
        await client.shutdown()
        return try rowsLeft(in: directory) == 0
    }

    /// The meta field that marks a poisoned record.
    package static let poisonField = "poison"

    /// Rows left in the client's store at `directory`.
    package static func rowsLeft(in directory: URL) throws -> Int {
        try StoreInspector.inspect(storageDirectory: directory).groups.reduce(0) { $0 + $1.rows }
    }
}
