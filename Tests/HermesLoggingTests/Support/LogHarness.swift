import Clocks
import Foundation
import GRDB
import Hermes
@testable import HermesLogging
import HermesTestEnvironment
import HermesTestKit
import HermesWire
import Logging

/// A temporary storage folder, a test clock for the timers, a settable wall clock for ages,
/// a client with the log namespaces registered, and helpers to read the store's file.
final class LogHarness: Sendable {
    let environment = TestEnvironment(prefix: "hermes-logging-tests")

    /// The client's storage folder.
    var directory: URL { environment.directory }
    /// The clock of the client's timers.
    var clock: TestClock<Duration> { environment.clock }
    /// Milliseconds since 1970 on the injected wall clock.
    var now: Int64 { environment.now }

    /// Moves the wall clock (record ages) without firing any timer.
    func advanceWallClock(by duration: Duration) {
        environment.advanceWallClock(by: duration.components.seconds * 1_000)
    }

    func client() throws -> HermesClient {
        try HermesClient(
            configuration: HermesClient.Configuration(
                storageDirectory: directory,
                app: .init(name: "Demo", version: "1.2.0", build: "42"),
                credentials: .init(appKey: "test-key", wireFormat: .v2(try AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1))),
                namespaceDefaults: HermesLogHandler.namespaceDefaults(),
                device: DeviceInfo(osName: "TestOS", osVersion: "1.0", model: "Tester"),
                transport: InMemoryTransport { _ in TransportResponse(status: 304) },
                clock: clock,
                wallClock: { [self] in self.now },
                randomSeed: 7
            ),
            logger: Logger(label: "hermes.tests", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    /// A persister on `client` with `controls`; the other settings are the defaults unless given.
    func persister(_ client: HermesClient, _ controls: HermesLogHandler.Controls, bufferLimit: Int = 10_000) -> LogPersister {
        LogPersister(client: client, configuration: .init(bufferLimit: bufferLimit, controls: controls))
    }

    /// A client, a persister with `controls` on it, and a logger writing through the persister.
    func start(_ controls: HermesLogHandler.Controls, bufferLimit: Int = 10_000) throws -> (HermesClient, LogPersister, Logger) {
        let client = try client()
        let persister = persister(client, controls, bufferLimit: bufferLimit)
        return (client, persister, logger(persister))
    }

    /// A logger whose handler writes through `persister`.
    func logger(_ persister: LogPersister, label: String = "app") -> Logger {
        Logger(label: label) { label in HermesLogHandler(label: label, persister: persister) }
    }

    var databasePath: String { directory.appendingPathComponent("hermes.sqlite").path }

    /// The rows of the meta table, oldest first (none when the store was never created).
    func rows() throws -> [Row] {
        guard FileManager.default.fileExists(atPath: databasePath) else { return [] }
        let queue = try DatabaseQueue(path: databasePath)
        defer { try? queue.close() }
        return try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM meta ORDER BY id") }
    }

    /// The stored meta of each row, parsed.
    func metas() throws -> [JSONValue] {
        try rows().map { try JSONValue(parsing: Array(($0["meta"] as String).utf8)) }
    }

    /// The `message` of each stored entry, oldest first.
    func messages() throws -> [String] {
        try metas().compactMap { $0["message"]?.stringValue }
    }
}

extension AsyncStream<LogPersister.Event>.Iterator {
    /// The next event that is not a save (at most 100 events are skipped).
    mutating func nextDeletion() async -> LogPersister.Event? {
        for _ in 0..<100 {
            guard let event = await next() else { return nil }
            if case .saved = event { continue }
            return event
        }
        return nil
    }

    /// The next save event (at most 100 other events are skipped).
    mutating func nextSave() async -> LogPersister.Event? {
        for _ in 0..<100 {
            guard let event = await next() else { return nil }
            if case .saved = event { return event }
        }
        return nil
    }
}
