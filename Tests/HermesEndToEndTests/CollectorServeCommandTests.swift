import ArgumentParser
import Foundation
@testable import hermes
import HermesWire
import Testing

/// `hermes collector serve` on the command line: where it stores, and secrets from files.
struct CollectorServeCommandTests {
    /// A directory with `files` written in it, removed after `body`.
    static func withFiles(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        try body(directory)
    }

    @Test func secretsComeFromFilesKeptOutOfTheArguments() throws {
        try Self.withFiles([
            "app-keys": "shop-ios\n\n  shop-android \n", "token": "s3cret\n",
            "aes": "1:000102030405060708090a0b0c0d0e0f\n2:101112131415161718191a1b1c1d1e1f\n",
        ]) { directory in
            let arguments = ["collector", "serve", "--storage", directory.appendingPathComponent("c.sqlite").path,
                             "--app-key-file", directory.appendingPathComponent("app-keys").path,
                             "--admin-token-file", directory.appendingPathComponent("token").path,
                             "--aes-key-file", directory.appendingPathComponent("aes").path]
            let serve = try #require(try HermesCommand.parseAsRoot(arguments) as? CollectorServeCommand)
            #expect(!arguments.contains("s3cret"))
            #expect(try serve.keys.keyring().cipher(.aesGCM, keyID: 2) != nil)
        }
    }

    @Test(arguments: [
        (["--app-key", "a", "--aes-key", "1:000102030405060708090a0b0c0d0e0f"], "Give --admin-token or --admin-token-file: the admin and event endpoints need it."),
        (["--admin-token", "t", "--aes-key", "1:000102030405060708090a0b0c0d0e0f"], "Give at least one --app-key (or --app-key-file): uploads without a known app key are refused."),
        (["--app-key", "a", "--admin-token", "t"], "Give at least one decryption key: --v1-key with --v1-iv, --aes-key(-file) or --hpke-private-key(-file)."),
        (["--app-key", "a", "--admin-token", "t", "--admin-token-file", "/nonexistent", "--aes-key", "1:000102030405060708090a0b0c0d0e0f"], "Give --admin-token or --admin-token-file, not both."),
        (["--app-key-file", "/nonexistent/keys", "--admin-token", "t", "--aes-key", "1:000102030405060708090a0b0c0d0e0f"], "--app-key-file: cannot read /nonexistent/keys."),
        (["--db", "a.sqlite", "--app-key", "a", "--admin-token", "t", "--aes-key", "1:000102030405060708090a0b0c0d0e0f"], "Give --db or --storage, not both."),
    ])
    func missingOrConflictingOptionsAreRefusedWithTheirMessage(arguments: [String], message: String) {
        #expect {
            _ = try HermesCommand.parseAsRoot(["collector", "serve", "--storage", "c.sqlite"] + arguments)
        } throws: { error in
            HermesCommand.message(for: error) == message
        }
    }

    @Test func storageIsAPostgresURLOrASQLiteFile() {
        #expect(StorageLocation("postgres://u@h:5432/d") == .postgres(url: "postgres://u@h:5432/d"))
        #expect(StorageLocation("postgresql://h/d") == .postgres(url: "postgresql://h/d"))
        #expect(StorageLocation("sqlite:/var/lib/c.sqlite") == .sqlite(path: "/var/lib/c.sqlite"))
        #expect(StorageLocation("collector.sqlite") == .sqlite(path: "collector.sqlite"))
    }

    @Test func benchCollectorRefusesSeveralInstancesOnOneSQLiteFile() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["bench", "collector", "--instances", "2"])
        } throws: { error in
            HermesCommand.message(for: error) == "SQLite serves one collector per file: use --instances 1, or --storage postgres://…."
        }
    }
}
