import ArgumentParser

/// `hermes sync`: record sync between devices through the collector's `/v1/sync`.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Record sync: a shared data set on many devices, offline first (docs/sync.md).",
        subcommands: [
            SyncDemoCommand.self, SyncTortureCommand.self, SyncBenchCommand.self, SyncSnapshotCommand.self, SyncDevicesCommand.self,
            SyncDeviceCommand.self,
        ]
    )
}
