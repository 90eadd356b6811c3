import ArgumentParser

/// `hermes collector …`: run the Hermes collector server.
struct CollectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collector",
        abstract: "Run the Hermes collector server, or erase a user's or a device's records from its store.",
        subcommands: [CollectorServeCommand.self, CollectorEraseCommand.self]
    )
}
