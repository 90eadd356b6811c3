import ArgumentParser
import HermesWire

/// The `hermes` command line: thin commands over the Hermes libraries.
@main
struct HermesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hermes",
        abstract: "Hermes: durable, encrypted data reporting for Swift apps, and its collector.",
        version: HermesVersion.current,
        subcommands: [
            BenchCommand.self, CollectorCommand.self, ConsoleCommand.self, DecodeCommand.self, DemoCommand.self, EventsCommand.self,
            InspectCommand.self,
            KeysCommand.self, SyncCommand.self,
            TortureCommand.self,
        ]
    )
}
