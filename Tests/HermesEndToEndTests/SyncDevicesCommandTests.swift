import ArgumentParser
import Foundation
@testable import hermes
import HermesCollector
import Testing

/// `hermes sync devices add|list|revoke` on a collector's SQLite store.
struct SyncDevicesCommandTests {
    @Test func aCredentialIsIssuedListedAndRevokedInTheStore() async throws {
        try await CollectorServeCommandTests.withFiles([:]) { directory in
            let database = directory.appendingPathComponent("c.sqlite").path
            let add = try #require(
                try HermesCommand.parseAsRoot([
                    "sync", "devices", "add", "--storage", database, "--client-id", "ipad-1", "--user", "alice", "--role", "editor",
                ]) as? SyncDevicesCommand.Add)
            try await add.run()
            let sync = try SQLiteSyncStorage(path: directory.appendingPathComponent("c-sync.sqlite").path)
            #expect(try await sync.device(clientID: "ipad-1").map { "\($0.user) \($0.roles) \($0.revokedAt == nil)" } == "alice [\"editor\"] true")
            let revoke = try #require(
                try HermesCommand.parseAsRoot(["sync", "devices", "revoke", "--storage", database, "--client-id", "ipad-1"])
                    as? SyncDevicesCommand.Revoke)
            try await revoke.run()
            #expect(try await sync.device(clientID: "ipad-1")?.revokedAt != nil)
            // A second revoke, and a second credential for the client id, are refused
            await #expect(throws: ValidationError.self) { try await revoke.run() }
            await #expect(throws: CollectorError.self) { try await add.run() }
        }
    }
}
