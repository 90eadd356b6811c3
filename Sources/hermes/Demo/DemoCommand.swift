import ArgumentParser
import Foundation
import Hermes
import HermesCollector
import HermesHarness
import HermesWire
import Logging

/// `hermes demo`: the whole path a newcomer wants to see — an app's records through the SDK,
/// over loopback, into a collector — with a table that proves every accepted record arrived.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a simulated app against an embedded collector and check every record arrived.",
        discussion: """
            With no options, starts a collector on an ephemeral loopback port with a temporary SQLite store.
            With --collector, sends to a collector that is already running (give its keys; give --admin-token
            to check what arrived). Exits non-zero, saying why, if an accepted record is missing at the collector or
            no collector confirmed it (a refused app key, a wrong URL, nothing listening).
            """
    )

    enum Wire: String, ExpressibleByArgument, CaseIterable {
        case v1, v2
    }

    @Option(help: "Base URL of a running collector, e.g. http://127.0.0.1:8080. Omit for an embedded one.")
    var collector: String?

    @Option(help: "Packet version: v1 (AES-128-CBC) or v2 (AES-GCM).")
    var wire: Wire = .v2

    @Option(help: "Cipher key in hex (v1: 16 bytes; v2: 16 or 32 bytes). Random for the embedded collector.")
    var key: String?

    @Option(help: "v1 IV in hex (16 bytes). Random for the embedded collector.")
    var iv: String?

    @Option(help: "v2 key id.")
    var keyID: UInt32 = 1

    @Option(help: "The app key uploads carry.")
    var appKey = "demo-app"

    @Option(help: "The collector's admin token, to read back what arrived (with --collector).")
    var adminToken: String?

    @Flag(help: "Print one JSON object (per-namespace counts, sessions, users, missing, captured_crashes) instead of the tables.")
    var json = false

    @Flag(help: "Keep the embedded collector running after the demo, with its web console: prints the console's URL and a sign-in. Ctrl-C stops it.")
    var serve = false

    @Option(help: "With --serve: the port to listen on (0 picks a free one).")
    var port = 8080

    func validate() throws {
        if serve, collector != nil { throw ValidationError("--serve keeps the embedded collector running; it cannot go with --collector") }
        if collector != nil {
            guard let collector, let url = URL(string: collector), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
                throw ValidationError("--collector must be an http:// or https:// URL such as http://127.0.0.1:8080")
            }
            guard key != nil else {
                throw ValidationError("--collector needs --key: the collector's \(wire == .v1 ? "AES-128-CBC" : "AES-GCM") key in hex")
            }
            if wire == .v1, iv == nil { throw ValidationError("--wire v1 needs --iv: the collector's AES-128-CBC IV in hex") }
        }
        for (name, value) in [("--key", key), ("--iv", iv)] {
            if let value, Hex.bytes(value) == nil { throw ValidationError("\(name) must be hexadecimal") }
        }
    }

    func run() async throws {
        var printed = false
        let outcome = try await report(say: { line in if !json { print(line) } }) { outcome, server, storage, key in
            guard serve, let server, let storage else { return }
            print(try json ? outcome.summary.json() : outcome.text)
            printed = true
            print(try await DemoConsole.open(storage: storage, port: server.port, appKey: appKey, key: key))
            fflush(nil)
            try await server.waitUntilStopped()
        }
        if !printed { print(try json ? outcome.summary.json() : outcome.text) }
        if let failure = outcome.failure {
            FileHandle.standardError.write(Data("hermes demo: \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Runs the demo; `say` gets the progress lines.
    /// - Parameter afterwards: runs once the demo is done, before the embedded collector (if
    ///   any) stops, with the report, that collector, its store and the cipher key in hex.
    func report(
        say: (String) -> Void,
        afterwards: (DemoReport, CollectorServer?, SQLiteCollectorStorage?, String) async throws -> Void = { _, _, _, _ in }
    ) async throws -> DemoReport {
        var logger = Logger(label: "hermes.demo")
        logger.logLevel = .warning
        let keyBytes = key.flatMap(Hex.bytes) ?? Hex.randomBytes(16)
        let ivBytes = iv.flatMap(Hex.bytes) ?? Hex.randomBytes(16)
        let format: WireFormat
        let cipher: any PacketCipher
        switch wire {
        case .v1:
            let cbc = try AESCBCCipher(key: keyBytes, iv: ivBytes)
            (format, cipher) = (.v1(cbc), cbc)
        case .v2:
            let gcm = try AESGCMCipher(key: keyBytes, keyID: keyID)
            (format, cipher) = (.v2(gcm), gcm)
        }

        var server: CollectorServer?
        var embedded: SQLiteCollectorStorage?
        let baseURL: URL
        let view: (any DemoCollectorView)?
        let workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: workDirectory) }
        if let collector {
            baseURL = URL(string: collector)!
            view = adminToken.map { RemoteCollectorView(baseURL: baseURL, adminToken: $0) }
        } else {
            try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
            let storage = try SQLiteCollectorStorage(path: workDirectory.appendingPathComponent("collector.sqlite").path)
            var configuration = CollectorConfiguration(
                port: serve ? port : 0, appKeys: [appKey], adminToken: Hex.string(Hex.randomBytes(16)),
                keyring: Keyring([cipher]), initialConfiguration: DemoScenario.configuration
            )
            // A rule made in the demo's console fires within seconds.
            configuration.console.alertInterval = .seconds(3)
            let running = try await CollectorServer.start(configuration: configuration, storage: storage, logger: logger, stopsOnSignals: serve)
            server = running
            embedded = storage
            baseURL = URL(string: "http://127.0.0.1:\(running.port)")!
            view = EmbeddedCollectorView(storage: storage)
        }
        say(
            "Hermes demo: collector at \(baseURL.absoluteString)\(server == nil ? "" : " (embedded, temporary SQLite)"), wire \(wire.rawValue) (\(cipher.algorithm))"
        )

        let clock = ContinuousClock()
        let started = clock.now
        let app = DemoApp(
            configURL: baseURL.appendingPathComponent("v1/config"),
            credentials: .init(appKey: appKey, wireFormat: format),
            logger: logger
        )
        let result: DemoApp.Result
        do {
            result = try await app.run { sent, total in
                let stored = server?.metrics.snapshot.recordsStored
                say("  sent \(sent)/\(total)" + (stored.map { " · stored at the collector so far: \($0)" } ?? ""))
            }
        } catch {
            try? await server?.shutdown()
            throw error
        }
        say(
            "configuration revision \(result.revision) from the collector; finished in \(String(format: "%.1f", started.duration(to: clock.now).seconds)) s"
        )

        var report = try await DemoReport.make(result: result, view: view)
        let crash: (signal: Int32, captured: [DemoCrash.Captured])
        do {
            crash = try await DemoCrash.run(
                configURL: baseURL.appendingPathComponent("v1/config"), credentials: .init(appKey: appKey, wireFormat: format),
                storage: embedded, logger: logger
            )
        } catch {
            try? await server?.shutdown()
            throw error
        }
        report.add(crash: crash.signal, captured: crash.captured, checked: embedded != nil)
        do {
            try await afterwards(report, server, embedded, Hex.string(keyBytes))
        } catch {
            try? await server?.shutdown()
            throw error
        }
        try? await server?.shutdown()
        return report
    }
}
