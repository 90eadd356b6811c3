import ArgumentParser
import HermesCollector
import HermesCollectorPostgres
import Logging

/// `hermes collector erase`: removes every record of a user or a device from the collector's
/// store, as `DELETE /v1/admin/users/{id}` and `/devices/{id}` do, and logs the same audit line.
struct CollectorEraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase", abstract: "Remove every record of a user or a device from the collector's store.")

    @OptionGroup var store: ConsoleStoreOptions

    @Option(help: "The user whose records go (the meta's USER_ID).")
    var user: String?

    @Option(help: "The device whose records go (the uploads' X-Hermes-Device-Id, the SDK's DEVICE_ID).")
    var device: String?

    func validate() throws {
        guard (user == nil) != (device == nil) else { throw ValidationError("give either --user or --device") }
    }

    func run() async throws {
        let subject: ErasureSubject = user.map(ErasureSubject.user) ?? .device(device ?? "")
        let removed = try await store.location.withOpen(logger: store.logger) { try await $0.erase(subject) }
        var audit = Logger(label: "hermes.collector")
        audit.logLevel = .notice
        subject.logAudit(removed: removed, by: "cli", to: audit)
        print("\(removed) records of \(subject.kind) \(subject.id) removed")
    }
}
