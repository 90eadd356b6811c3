import ArgumentParser

/// `hermes keys`: key material for the collector and the apps.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make keys for the collector and the apps.",
        subcommands: [KeysGenerateCommand.self]
    )
}
