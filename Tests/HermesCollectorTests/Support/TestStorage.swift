import Foundation
import HermesCollector
import HermesCollectorPostgres
import Logging
import Testing

/// The kinds of store the contract tests run against: SQLite always, PostgreSQL when
/// `HERMES_TEST_POSTGRES_URL` names a server (`scripts/postgres.sh start` prints one). Under
/// `CI=true` PostgreSQL is always listed, so a missing URL fails its tests instead of skipping them.
enum StorageKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let postgresURLVariable = "HERMES_TEST_POSTGRES_URL"

    static var available: [StorageKind] {
        let environment = ProcessInfo.processInfo.environment
        let hasPostgres = environment[postgresURLVariable].map { !$0.isEmpty } ?? false
        return hasPostgres || environment["CI"] == "true" ? [.sqlite, .postgres] : [.sqlite]
    }

    /// The server's URL, or a failure naming the variable.
    static func postgresURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[postgresURLVariable], !url.isEmpty else {
            throw TestStorageError("set \(postgresURLVariable) (scripts/postgres.sh start prints one); CI must run the PostgreSQL tests")
        }
        return url
    }

    var testDescription: String { rawValue }
}

struct TestStorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh, empty database of one kind for one test: a SQLite file in its own directory, or a
/// PostgreSQL database made for the test and dropped after it. ``open()`` gives another store
/// object on the same database, as a second collector would open it.
final class TestStorage: Sendable {
    let kind: StorageKind
    /// A SQLite file path, or a PostgreSQL URL.
    let location: String
    private let cleanup: @Sendable () async throws -> Void

    static let logger = Logger(label: "hermes.collector.tests") { _ in SwiftLogNoOpLogHandler() }

    /// The PostgreSQL databases tests may hold at once.
    private static let postgresSlots = TestSlots(4)

    private init(kind: StorageKind, location: String, cleanup: @escaping @Sendable () async throws -> Void) {
        self.kind = kind
        self.location = location
        self.cleanup = cleanup
    }

    /// Makes the empty database, runs `body`, and removes the database (stores `body` opened
    /// through ``open()`` must be closed by then: ``withStore(_:_:)`` does it).
    static func with<T>(_ kind: StorageKind, _ body: (TestStorage) async throws -> T) async throws -> T {
        // At most a few PostgreSQL databases at once: each is made, migrated and dropped (a
        // checkpoint), and dozens at once on two cores would outlast any open timeout.
        if kind == .postgres { await postgresSlots.acquire() }
        defer { if kind == .postgres { postgresSlots.release() } }
        let storage = try await make(kind)
        do {
            let value = try await body(storage)
            try await storage.cleanup()
            return value
        } catch {
            try? await storage.cleanup()
            throw error
        }
    }

    /// Opens a store on the database, runs `body` with it, and closes it.
    func withStore<T>(_ body: (any CollectorStorage) async throws -> T) async throws -> T {
        let (store, close) = try await open()
        do {
            let value = try await body(store)
            await close()
            return value
        } catch {
            await close()
            throw error
        }
    }

    /// Another store object on this database, and how to close it.
    func open() async throws -> (any CollectorStorage, @Sendable () async -> Void) {
        switch kind {
        case .sqlite:
            return (try SQLiteCollectorStorage(path: location), {})
        case .postgres:
            var options = PostgresCollectorStorage.Options()
            // Generous: a busy two-core machine running the whole suite.
            options.openTimeout = .seconds(60)
            let store = try await PostgresCollectorStorage.open(url: location, logger: Self.logger, options: options)
            return (store, { await store.close() })
        }
    }

    private static func make(_ kind: StorageKind) async throws -> TestStorage {
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-collector-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return TestStorage(kind: kind, location: directory.appendingPathComponent("collector.sqlite").path) {
                try FileManager.default.removeItem(at: directory)
            }
        case .postgres:
            let serverURL = try StorageKind.postgresURL()
            let name = "hermes_test_\(UUID().uuidString.prefix(8).lowercased())"
            let url = try await PostgresAdministration.createDatabase(name, serverURL: serverURL, logger: logger)
            return TestStorage(kind: kind, location: url) {
                try await PostgresAdministration.dropDatabase(name, serverURL: serverURL, logger: logger)
            }
        }
    }
}
