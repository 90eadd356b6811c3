package import Foundation
package import HermesCollectorPostgres
package import Logging

/// A fresh, empty store for one measurement of the collector benchmarks, removed after it.
package enum BenchDatabase {
    /// Runs `body` with a fresh store and a scratch directory, then removes both.
    /// - Parameters:
    ///   - postgresURL: a PostgreSQL server where the benchmark may create and drop databases (a
    ///     new database per call), or `nil` for a SQLite file in the scratch directory.
    ///   - body: given the store's `--storage` value and the scratch directory.
    package static func withFresh<T>(postgresURL: String?, logger: Logger, _ body: (String, URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-collector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let postgresURL else {
            return try await body(directory.appendingPathComponent("collector.sqlite").path, directory)
        }
        let name = "hermes_bench_\(UUID().uuidString.prefix(8).lowercased())"
        let location = try await PostgresAdministration.createDatabase(name, serverURL: postgresURL, logger: logger)
        do {
            let value = try await body(location, directory)
            try await PostgresAdministration.dropDatabase(name, serverURL: postgresURL, logger: logger)
            return value
        } catch {
            try? await PostgresAdministration.dropDatabase(name, serverURL: postgresURL, logger: logger)
            throw error
        }
    }
}
