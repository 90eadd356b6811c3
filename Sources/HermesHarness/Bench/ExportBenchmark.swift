package import Foundation
package import HermesCollector
import HermesCollectorPostgres
import HermesWire
import Logging

/// `hermes bench export`: how fast `GET /v1/events/export` streams a store of `records`
/// records (the mix of ``ConsoleWorkload``), and that it does so in flat memory.
///
/// The store (a SQLite file in a scratch directory, or a fresh database on a PostgreSQL server)
/// is filled through ``CollectorStorage/store(_:)`` (not timed). A collector in this process
/// serves it on loopback, and the whole store is downloaded once as NDJSON and once as CSV,
/// the body read as it comes and dropped (``ExportDownload``). Around each download the
/// process's resident memory is read: before it, its peak during it (the peak is reset first,
/// ``ResidentMemory/resetPeak()``), when a tenth of the records had arrived, and after it.
package struct ExportBenchmark {
    package var records: Int
    /// `nil` for SQLite, else the PostgreSQL server's URL (a fresh database, dropped after).
    package var postgresURL: String?

    package init(records: Int, postgresURL: String?) {
        self.records = records
        self.postgresURL = postgresURL
    }

    package func run() async throws -> BenchReport {
        let logger = ConsoleBenchmark.benchLogger
        return try await ConsoleBenchmark.withFilledStore(records: records, postgresURL: postgresURL, logger: logger) { storage, fillSeconds in
            var report = BenchReport()
            report.add("records", Double(records), "records in the store")
            report.add("fill_s", fillSeconds, "seconds to fill the store (not part of the figures below)")
            report.add("rss_after_fill_mb", Self.megabytes(ResidentMemory.current), "MB resident after the fill, before serving")
            let token = Hex.string(Hex.randomBytes(16))
            let server = try await CollectorServer.start(
                configuration: CollectorConfiguration(port: 0, appKeys: ["export-bench"], adminToken: token, keyring: Keyring([])),
                storage: storage, logger: logger)
            do {
                for format in EventExportFormat.allCases {
                    try await download(format, port: server.port, token: token, into: &report)
                }
                try await server.shutdown()
            } catch {
                try? await server.shutdown()
                throw error
            }
            return report
        }
    }

    /// Downloads the whole store as `format` and adds its figures.
    private func download(_ format: EventExportFormat, port: Int, token: String, into report: inout BenchReport) async throws {
        let name = format.rawValue
        let before = ResidentMemory.current
        ResidentMemory.resetPeak()
        var atTenth: Int?
        let tenth = max(1, records / 10)
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try await ExportDownload.get(
            port: port, path: HermesPath.events + "/export?format=\(name)", headers: ["Authorization": "Bearer \(token)"]
        ) { lines in
            if atTenth == nil, lines >= tenth { atTenth = ResidentMemory.current }
        }
        let seconds = start.duration(to: clock.now).seconds
        let peak = ResidentMemory.peak
        let exported = outcome.lines - (format == .csv ? 1 : 0)
        guard outcome.status == 200, exported == records else {
            throw RunFailure("the \(name) export answered \(outcome.status) with \(exported) records of \(records)")
        }
        report.add("\(name)_records_per_s", Double(records) / seconds, "records per second, \(name)")
        report.add("\(name)_mb_per_s", Double(outcome.bytes) / 1_048_576 / seconds, "MB per second, \(name)")
        report.add("\(name)_rss_before_mb", Self.megabytes(before), "MB resident before the \(name) export")
        report.add("\(name)_rss_at_tenth_mb", Self.megabytes(atTenth), "MB resident when a tenth of the records had arrived")
        report.add("\(name)_peak_mb", Self.megabytes(peak), "MB resident at the peak of the \(name) export (VmHWM)")
        report.add("\(name)_rss_after_mb", Self.megabytes(ResidentMemory.current), "MB resident after the \(name) export")
    }

    private static func megabytes(_ bytes: Int?) -> Double {
        bytes.map { Double($0) / 1_048_576 } ?? .nan
    }
}
