import ArgumentParser
import HermesCollector
import HermesCollectorPostgres

/// `hermes console users list`: the console's users and their roles.
struct ConsoleUsersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the console's users and their roles.")

    @OptionGroup var store: ConsoleStoreOptions

    func run() async throws {
        let users = try await store.location.withOpen(logger: store.logger) { try await $0.consoleUsers() }
        for user in users { print("\(user.name)\t\(user.role.rawValue)") }
    }
}

/// `hermes console users remove`: removes a console user and ends their sessions.
struct ConsoleUsersRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a console user and end their sessions.")

    @OptionGroup var store: ConsoleStoreOptions

    @Option(help: "The user's sign-in name.")
    var name: String

    func run() async throws {
        let removed = try await store.location.withOpen(logger: store.logger) { try await $0.removeConsoleUser(named: name) }
        guard removed else { throw ValidationError("there is no console user named \(name)") }
        print("console user \(name) removed")
    }
}
