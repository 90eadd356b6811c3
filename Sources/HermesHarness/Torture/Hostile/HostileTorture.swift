package import Foundation
package import Hermes
package import HermesCollector
import HermesCollectorPostgres
package import HermesWire
package import Logging

/// `hermes torture hostile`: what a stranger who unpacked the app (and so holds its app key and
/// key) and an unlucky device can do to the collector and the SDK, played against a collector
/// on SQLite or PostgreSQL in this process. Each case says what it sent and what happened; the
/// run fails when one did not hold.
package struct HostileTorture {
    /// The business namespace the uploads name.
    package static let namespace = "JZ"
    /// How many idle connections the flood tries to hold (fewer when the process may not open
    /// that many files).
    package var idleConnections = 20_000
    /// A PostgreSQL server where the run may create and drop a database, or `nil` for SQLite.
    package var postgresURL: String?

    package init(idleConnections: Int = 20_000, postgresURL: String? = nil) {
        self.idleConnections = idleConnections
        self.postgresURL = postgresURL
    }

    /// One case: what was sent, what happened, whether it held.
    package struct Case: Sendable {
        package var name: String
        package var sent: String
        package var happened: String
        package var held: Bool
    }

    /// The run's cases and figures.
    package struct Outcome: Sendable {
        package var cases: [Case] = []
        /// The process's peak resident memory over the run (the collector and the attacker).
        package var peakRSSMegabytes: Double = 0
        /// How long a real upload took while the idle flood was open.
        package var legitUploadMillisecondsUnderIdleFlood: Double = 0
        /// Records the SDK deleted although no collector acknowledged them.
        package var recordsDeletedWithoutAcknowledgement = 0

        /// Whether every case held.
        package var held: Bool { cases.allSatisfy(\.held) }
    }

    package func run() async throws -> Outcome {
        // The flood's sockets and the collector's in one process: room for both.
        OpenFileLimit.raise(to: 2 * idleConnections + 5_000)
        ResidentMemory.resetPeak()
        // Every refusal of the run is expected: the collector says nothing short of a failure.
        var logger = TortureLog.quiet
        logger.logLevel = .critical
        var outcome = try await BenchDatabase.withFresh(postgresURL: postgresURL, logger: logger) { location, directory in
            let (storage, close) = try await StorageLocation(location).open(logger: logger)
            do {
                let outcome = try await run(storage: storage, logger: logger)
                await close()
                return outcome
            } catch {
                await close()
                throw error
            }
        }
        outcome.recordsDeletedWithoutAcknowledgement = try await HostileDevice.deletedWithoutAcknowledgement(records: 600)
        outcome.cases.append(
            Case(
                name: "any_200_server", sent: "600 records from an SDK to a server answering 200 OK to everything",
                happened: "\(outcome.recordsDeletedWithoutAcknowledgement) deleted without a collector's acknowledgement",
                held: outcome.recordsDeletedWithoutAcknowledgement == 0
            ))
        let journal = try await HostileDevice.damagedJournalHeader(records: 350)
        outcome.cases.append(
            Case(
                name: "damaged_journal", sent: "350 accepted records in a journal segment whose header is then damaged",
                happened: "\(journal.stored) reached the store, \(journal.torn) counted torn",
                held: journal.stored == 350
            ))
        outcome.peakRSSMegabytes = Double(ResidentMemory.peak ?? 0) / 1_048_576
        return outcome
    }

    private func run(storage: any CollectorStorage, logger: Logger) async throws -> Outcome {
        let key = Hex.randomBytes(16)
        var configuration = CollectorConfiguration(
            port: 0, appKeys: [HostileCollector.appKey], adminToken: Hex.string(Hex.randomBytes(16)),
            keyring: Keyring([try AESGCMCipher(key: key, keyID: 1)]),
            initialConfiguration: ConfigurationDocument(
                revision: 1,
                namespaces: ["hermes": .hermesDefault, Self.namespace: NamespaceConfiguration(monitorList: [MonitorItem(type: "appLag")])]
            )
        )
        // Short enough for the run to watch stalled connections close.
        configuration.headTimeout = .seconds(3)
        configuration.bodyReadTimeout = .seconds(3)
        let server = try await CollectorServer.start(configuration: configuration, storage: storage, logger: logger)
        let collector = HostileCollector(port: server.port, uploads: try HostileUploads(key: key, keyID: 1))
        var outcome = Outcome()
        do {
            outcome.cases += try await collector.bombs()
            outcome.cases.append(try await collector.nulFields())
            outcome.cases.append(try await collector.oversizedMeta())
            let (flood, legit) = try await collector.idleFlood(idleConnections)
            outcome.cases.append(flood)
            outcome.legitUploadMillisecondsUnderIdleFlood = legit
            outcome.cases.append(try await collector.stalledBodies(100, timeout: configuration.bodyReadTimeout))
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
        return outcome
    }
}

extension HostileTorture.Outcome {
    /// The figures `hermes torture hostile` prints.
    package func report() -> BenchReport {
        var report = BenchReport()
        for item in cases {
            report.add("\(item.name)_held", item.held ? 1 : 0, "\(item.name): \(item.happened) (\(item.sent))")
        }
        report.add("peak_rss_mb", peakRSSMegabytes, "peak RSS of collector and attacker (MB)")
        report.add("legit_upload_ms_under_idle_flood", legitUploadMillisecondsUnderIdleFlood, "a real upload while the idle flood is open (ms)")
        report.add(
            "records_deleted_without_ack", Double(recordsDeletedWithoutAcknowledgement), "records deleted without an acknowledgement (must be 0)")
        report.add("cases_failed", Double(cases.filter { !$0.held }.count), "cases that did not hold (must be 0)")
        return report
    }
}
