import ArgumentParser

/// `hermes console …`: the web console's users.
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Manage the web console's users (the console itself is served by `hermes collector serve` under /console).",
        subcommands: [ConsoleUsersCommand.self]
    )
}

/// `hermes console users add|list|remove`.
struct ConsoleUsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Add, list or remove console users.",
        subcommands: [ConsoleUsersAddCommand.self, ConsoleUsersListCommand.self, ConsoleUsersRemoveCommand.self]
    )
}
