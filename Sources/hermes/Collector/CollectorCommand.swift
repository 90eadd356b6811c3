import ArgumentParser

/// `hermes collector …`: run the Hermes collector server.
struct CollectorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collector",
        abstract: "Run the Hermes collector server.",
        subcommands: [CollectorServeCommand.self]
    )
}
