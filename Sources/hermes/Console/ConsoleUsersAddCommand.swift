public import ArgumentParser
import Foundation
public import HermesCollector
import HermesCollectorPostgres

/// `hermes console users add`: adds a console user, or changes one's role and password.
struct ConsoleUsersAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a console user, or change an existing one's role and password.",
        discussion: "The password is read from --password-file, or else from the first line of standard input; it is stored as a bcrypt hash."
    )

    @OptionGroup var store: ConsoleStoreOptions

    @Option(help: "The sign-in name (letters, digits, '.', '_', '-', '@').")
    var name: String

    @Option(help: "viewer (reads), editor (also edits namespaces and alert rules) or admin (also manages users).")
    var role: ConsoleRole = .viewer

    @Option(help: "A file whose first line is the password (at least 10 characters).")
    var passwordFile: String?

    @Option(help: "The bcrypt cost (each step doubles the time of a sign-in).")
    var cost: UInt8 = ConsoleSettings().passwordCost

    func run() async throws {
        try ConsoleUser.validate(name: name)
        let text = try passwordFile.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? readLine(strippingNewline: true) ?? ""
        let password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        let hash = try await PasswordHasher.hash(password, cost: cost)
        try await store.location.withOpen(logger: store.logger) { storage in
            try await storage.saveConsoleUser(
                ConsoleUser(name: name, role: role, passwordHash: hash, createdAt: CollectorConfiguration.systemWallClock()))
        }
        print("console user \(name) saved as \(role.rawValue)")
    }
}

/// `--role editor`: a role by its name.
extension ConsoleRole: ExpressibleByArgument {}
