import ArgumentParser
import Foundation
import HermesCollector
import HermesHarness

/// `hermes torture hostile [--storage postgres://…] [--json]`.
struct HostileTortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract: "Play what a stranger holding the app key, and a wrong server, can do; check nothing goes down or is lost.",
        discussion: """
            Against a collector in this process (SQLite, or a database made on --storage and dropped \
            after): decompression bombs across payload slots, NUL characters in checked fields, an \
            oversized meta line, an idle connection flood from one address with a real upload \
            meanwhile, uploads that stall mid-body; and an SDK pointed at a server answering 200 to \
            everything. Prints per case what was sent and what happened, peak_rss_mb, \
            legit_upload_ms_under_idle_flood and records_deleted_without_ack. Exits 1 if a case \
            did not hold.
            """
    )

    @Option(help: "Idle connections the flood tries to open (fewer when the open-file limit is lower).")
    var idleConnections = 20_000

    @Option(help: ArgumentHelp("A PostgreSQL server where the run may create and drop a database. Default: a SQLite file.", valueName: "url"))
    var storage: String?

    @OptionGroup var options: TortureRunOptions

    func validate() throws {
        guard idleConnections >= 600 else { throw ValidationError("--idle-connections must be at least 600") }
        if let storage, StorageLocation(storage).postgresURL == nil {
            throw ValidationError("--storage must be a postgres:// URL (the default is a SQLite file)")
        }
    }

    func run() async throws {
        try await options.report("torture hostile") { _ in
            let outcome = try await HostileTorture(idleConnections: idleConnections, postgresURL: storage).run()
            if options.json {
                // What each case sent and what happened, beside the JSON figures on standard output.
                for item in outcome.cases {
                    FileHandle.standardError.write(Data("\(item.held ? "held" : "FAILED") \(item.name): sent \(item.sent); \(item.happened)\n".utf8))
                }
            }
            return (outcome.report(), outcome.held)
        }
    }
}
