import ArgumentParser
import Foundation
import HermesCollector
import HermesCollectorPostgres
import HermesHarness
import Logging

/// `hermes sync snapshot`: the data set of a collector's sync store as a device database to ship
/// in an app, from which `SyncClient` starts and catches up.
struct SyncSnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Write the sync store's records at its current revision as a device database to ship in an app."
    )

    @Option(
        help: ArgumentHelp(
            "The collector's --storage: its SQLite file (the sync file beside it is read) or postgres:// URL.", valueName: "url-or-path"))
    var storage: String

    @Option(help: ArgumentHelp("The sync schema JSON file the app ships with.", valueName: "file"))
    var schema: String

    @Option(help: ArgumentHelp("The device database to write (replaced if it exists).", valueName: "file"))
    var out: String

    func run() async throws {
        let schema = try ServeSettings.syncSchema(self.schema)
        let (records, revision) = try await StorageLocation(storage).withOpenSync(logger: Logger(label: "hermes.sync.snapshot")) {
            try await SyncSnapshotExport.write(from: $0, schema: schema, to: out)
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        print("wrote \(records) records at revision \(revision) to \(out) (\(bytes) bytes)")
    }
}
