import ArgumentParser
import Foundation
import HermesCollector
import HermesCollectorPostgres
import Logging

/// `hermes sync devices add|list|revoke`: the device credentials of a collector's sync store,
/// managed on the store directly (the admin API, `/v1/admin/sync/devices`, does the same through
/// a running collector).
struct SyncDevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Issue, list and revoke the credentials devices sync with (docs/sync.md, Permissions).",
        subcommands: [Add.self, List.self, Revoke.self]
    )

    struct Store: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "The collector's --storage: its SQLite file (the sync file beside it is used) or postgres:// URL.", valueName: "url-or-path"))
        var storage: String

        func run<T>(_ body: (any SyncStorage) async throws -> T) async throws -> T {
            try await StorageLocation(storage).withOpenSync(logger: Logger(label: "hermes.sync.devices"), body)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a credential bound to a client id; prints its secret, shown this once.")

        @OptionGroup var store: Store
        @Option(help: "The device's client id (what its SyncClient is opened with).") var clientID: String
        @Option(help: "The user the device acts for: what owner attributes hold.") var user: String
        @Option(name: .customLong("role"), help: "A role for the schema's role: rules (repeat for more).") var roles: [String] = []

        func run() async throws {
            let (device, secret) = try SyncDevice.issue(clientID: clientID, user: user, roles: roles, now: Int64(Date().timeIntervalSince1970 * 1000))
            try await store.run { try await $0.addDevice(device) }
            print(secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the credentials: client id, user, roles, revoked or not.")

        @OptionGroup var store: Store

        func run() async throws {
            for device in try await store.run({ try await $0.devices() }) {
                let roles = device.roles.isEmpty ? "-" : device.storedRoles
                print("\(device.clientID)\tuser=\(device.user)\troles=\(roles)\t\(device.revokedAt == nil ? "active" : "revoked")")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a client id's credential: its requests are refused from now on.")

        @OptionGroup var store: Store
        @Option(help: "The device's client id.") var clientID: String

        func run() async throws {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            guard try await store.run({ try await $0.revokeDevice(clientID: clientID, now: now) }) else {
                throw ValidationError("client id \(clientID) has no credential to revoke.")
            }
            print("revoked \(clientID)")
        }
    }
}
