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
        #expect(summary.contains("app-key-rate = no limit"))
        #expect(summary.contains("tls-cert-file = none (plain HTTP)"))
        let bound = try await CollectorServeCommandTests.settings(
            ["--storage", "c.sqlite", "--admin-token", "t"] + CollectorServeCommandTests.aesKey,
            environment: ["HERMES_APP_KEY": "open-key, pay-key pay hermes"])
        #expect(bound.collector.appKeys == ["open-key", "pay-key"])
        #expect(bound.collector.appKeyNamespaces == ["pay-key": ["pay", "hermes"]])
        #expect(bound.summary.contains("app-key = 2 (redacted), 1 bound to namespaces (environment variable HERMES_APP_KEY)"))
        let scoped = try await CollectorServeCommandTests.settings(Self.required + ["--token", "r1 read", "--token", "ops configure admin"])
        #expect(scoped.collector.tokens == ["r1": [.read], "ops": [.configure, .admin]])
        #expect(scoped.summary.contains("token = admin+configure, read (redacted) (flag)"))
        #expect(
            await Self.refusal(Self.required + ["--token", "t2 wrte"])
                == #"--token: give each token with its scopes (ingest, read, configure, admin), as "TOKEN read"."#)
        let limited = try await CollectorServeCommandTests.settings(Self.required, environment: ["HERMES_APP_KEY_RATE": "50"])
        #expect(limited.collector.appKeyRequestsPerSecond == 50)
        #expect(limited.summary.contains("app-key-rate = 50 a second per app key (environment variable HERMES_APP_KEY_RATE)"))
        #expect(await Self.refusal(Self.required + ["--app-key-rate", "0"]) == "--app-key-rate must be at least 1 upload a second.")
        #expect(summary.contains("storage = c.sqlite (flag)"))
        #expect(summary.contains("decryption keys = aes-gcm 1 (flag)") || summary.contains("decryption keys = aes-gcm 1"))
        let text = summary.joined(separator: "\n")
        #expect(!text.contains("000102030405060708090a0b0c0d0e0f") && text.contains("admin-token = (redacted)"))
    }

    @Test func aSecretsDirectoryGivesOneSettingAFileNamedForItsOptionOrVariable() async throws {
        try await CollectorServeCommandTests.withFiles([
            "storage": "secret.sqlite\n", "HERMES_ADMIN_TOKEN": "s3cret\n", "app-key": "shop-ios\nshop-android\n",
            "aes-key": "4:000102030405060708090a0b0c0d0e0f", ".data": "a mount's own entry",
        ]) { directory in
            // A subdirectory (as mounts make) is skipped too
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("..2026_11_26"), withIntermediateDirectories: true)
            let settings = try await CollectorServeCommandTests.settings(
                ["--secrets-dir", directory.path], environment: ["HERMES_STORAGE": "environment.sqlite"])
            #expect(settings.location == .sqlite(path: "environment.sqlite"))
            #expect(settings.collector.adminToken == "s3cret")
            #expect(settings.collector.appKeys == ["shop-ios", "shop-android"])
            #expect(settings.collector.keyring.cipher(.aesGCM, keyID: 4) != nil)
            #expect(settings.summary.contains("admin-token = (redacted) (secrets directory \(directory.path) file for --admin-token)"))
            // The variable names the directory as well, and is no unknown variable
            let fromVariable = try await CollectorServeCommandTests.settings([], environment: ["HERMES_SECRETS_DIR": directory.path])
            #expect(fromVariable.location == .sqlite(path: "secret.sqlite"))
            #expect(fromVariable.unknownEnvironmentNames.isEmpty)
        }
    }

    @Test func aSecretsFileThatNamesNoOptionStopsTheStart() async throws {
        try await CollectorServeCommandTests.withFiles(["admin_token": "x", "prot": "1"]) { directory in
            #expect(
                await Self.refusal(Self.required + ["--secrets-dir", directory.path])
                    == "--secrets-dir \(directory.path): files name no option: admin_token, prot; "
                    + "name each file for its option (admin-token) or its variable (HERMES_ADMIN_TOKEN).")
        }
        #expect(await Self.refusal(Self.required + ["--secrets-dir", "/nonexistent-hermes"]) == "--secrets-dir: cannot list /nonexistent-hermes.")
    }

    @Test func aYAMLSettingsFileIsReadAsStrictlyAsJSON() async throws {
        try await CollectorServeCommandTests.withFiles([
            "collector.yaml": "storage: c.sqlite\nport: 9090\nretentionDays: 30\nappKey:\n  - shop-ios\n  - shop-android\nlogJson: true\n",
            "typo.yml": "prot: 8080\n", "list.yaml": "- storage\n", "bad.yaml": "retentionDays: thirty\n",
        ]) { directory in
            let file = { (name: String) in directory.appendingPathComponent(name).path }
            let settings = try await CollectorServeCommandTests.settings(
                ["--settings", file("collector.yaml"), "--admin-token", "t"] + CollectorServeCommandTests.aesKey)
            #expect(settings.collector.port == 9090)
            #expect(settings.collector.retentionDays == 30)
            #expect(settings.collector.appKeys == ["shop-ios", "shop-android"])
            #expect(settings.logJSON)
            #expect(settings.summary.contains("port = 9090 (settings file \(file("collector.yaml")) key \"port\")"))
            #expect(
                await Self.refusal(Self.required + ["--settings", file("typo.yml")])?.hasPrefix(
                    "--settings \(file("typo.yml")): unknown key \"prot\"") == true)
            #expect(
                await Self.refusal(Self.required + ["--settings", file("list.yaml")])
                    == "--settings: cannot read \(file("list.yaml")) as a YAML mapping of settings.")
            #expect(
                await Self.refusal(Self.required + ["--settings", file("bad.yaml")])
                    == #"settings file \#(file("bad.yaml")) key "retentionDays": --retention-days must be a whole number, not "thirty"."#)
        }
    }
}
