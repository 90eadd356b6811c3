import ArgumentParser
import Foundation
@testable import hermes
import HermesCollector
import HermesWire
import Testing

/// `collector serve` settings read strictly: what cannot be read stops the start, naming where.
struct ServeSettingsTests {
    static let required = ["--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t"] + CollectorServeCommandTests.aesKey

    static func refusal(_ arguments: [String], environment: [String: String] = [:]) async -> String? {
        do {
            _ = try await CollectorServeCommandTests.settings(arguments, environment: environment)
            return nil
        } catch {
            return HermesCommand.message(for: error)
        }
    }

    @Test func anEnvironmentValueThatIsNotANumberStopsTheStartNamingTheVariable() async {
        #expect(
            await Self.refusal(Self.required, environment: ["HERMES_PORT": "abc"])
                == #"environment variable HERMES_PORT: --port must be a whole number, not "abc"."#)
    }

    @Test func aSettingsFileKeyThatNamesNoOptionOrCannotBeReadStopsTheStart() async throws {
        try await CollectorServeCommandTests.withFiles([
            "typo.json": #"{"prot": 8080, "storage": "c.sqlite"}"#, "bad.json": #"{"retentionDays": "abc"}"#,
        ]) { directory in
            let typo = directory.appendingPathComponent("typo.json").path
            #expect(
                await Self.refusal(Self.required + ["--settings", typo])
                    == #"--settings \#(typo): unknown key "prot"; the keys are the options' names in camelCase ("storage", "retentionDays", "appKey", …)."#
            )
            let bad = directory.appendingPathComponent("bad.json").path
            #expect(
                await Self.refusal(Self.required + ["--settings", bad])
                    == #"settings file \#(bad) key "retentionDays": --retention-days must be a whole number, not "abc"."#)
        }
    }

    @Test func environmentNamesAreTheOptionsNamesWithListsCommaSeparated() async throws {
        let settings = try await CollectorServeCommandTests.settings(
            ["--storage", "c.sqlite", "--admin-token", "t"],
            environment: [
                "HERMES_APP_KEY": "shop-ios, shop-android", "HERMES_AES_KEY": "3:000102030405060708090a0b0c0d0e0f",
                "HERMES_MAX_CONNECTIONS_PER_ADDRESS": "0", "HERMES_LOG_JSON": "true", "HERMES_TEST_POSTGRES_URL": "x",
            ]
        )
        #expect(settings.collector.appKeys == ["shop-ios", "shop-android"])
        #expect(settings.collector.keyring.cipher(.aesGCM, keyID: 3) != nil)
        #expect(settings.collector.maxConnectionsPerAddress == 0)
        #expect(settings.logJSON)
        #expect(settings.unknownEnvironmentNames == ["HERMES_TEST_POSTGRES_URL"])
    }

    @Test func everyMissingRequiredSettingIsNamedAtOnce() async {
        let message = await Self.refusal([])
        #expect(message?.split(separator: "\n").count == 4)
        #expect(message?.contains("--storage") == true && message?.contains("--app-key") == true)
        #expect(message?.contains("--admin-token") == true && message?.contains("decryption key") == true)
    }

    @Test func checkPrintsTheEffectiveSettingsWithSecretsRedacted() async throws {
        let command = try #require(
            try HermesCommand.parseAsRoot(["collector", "serve", "--check", "--retention-days", "30"] + Self.required) as? CollectorServeCommand)
        #expect(command.check)
        let summary = try await command.resolved(environment: ["HERMES_PORT": "9000"]).summary
        #expect(summary.contains("port = 9000 (environment variable HERMES_PORT)"))
        #expect(summary.contains("retention-days = 30 (flag)"))
        #expect(summary.contains("storage = c.sqlite (flag)"))
        #expect(summary.contains("decryption keys = aes-gcm 1 (flag)") || summary.contains("decryption keys = aes-gcm 1"))
        let text = summary.joined(separator: "\n")
        #expect(!text.contains("000102030405060708090a0b0c0d0e0f") && text.contains("admin-token = (redacted)"))
    }
}
