import ArgumentParser
import Foundation
@testable import hermes
import Hermes
import HermesCollector
import HermesWire
import Logging
import Testing

/// `hermes collector serve` on the command line: where it stores, and secrets from files.
struct CollectorServeCommandTests {

    /// A directory with `files` written in it, removed after `body`.
    static func withFiles(_ files: [String: String], _ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        try await body(directory)
    }

    static let aesKey = ["--aes-key", "1:000102030405060708090a0b0c0d0e0f"]

    static func settings(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServeSettings {
        let serve = try #require(try HermesCommand.parseAsRoot(["collector", "serve"] + arguments) as? CollectorServeCommand)
        return try await serve.resolved(environment: environment)
    }

    @Test func secretsComeFromFilesKeptOutOfTheArguments() async throws {
        try await Self.withFiles([
            "app-keys": "shop-ios\n\n  shop-android \n", "token": "s3cret\n",
            "aes": "1:000102030405060708090a0b0c0d0e0f\n2:101112131415161718191a1b1c1d1e1f\n",
        ]) { directory in
            let arguments = [
                "--storage", directory.appendingPathComponent("c.sqlite").path,
                "--app-key-file", directory.appendingPathComponent("app-keys").path,
                "--admin-token-file", directory.appendingPathComponent("token").path,
                "--aes-key-file", directory.appendingPathComponent("aes").path,
            ]
            let settings = try await Self.settings(arguments)
            #expect(!arguments.contains("s3cret"))
            #expect(settings.collector.adminToken == "s3cret")
            #expect(settings.collector.appKeys == ["shop-ios", "shop-android"])
            #expect(settings.collector.keyring.cipher(.aesGCM, keyID: 2) != nil)
        }
    }

    @Test func aFlagWinsOverTheEnvironmentWhichWinsOverTheSettingsFile() async throws {
        try await Self.withFiles([
            "settings.json":
                #"{"storage": "from-file.sqlite", "port": 7000, "retentionDays": 30, "appKeys": ["a"], "adminToken": "t", "logLevel": "debug"}"#
        ]) { directory in
            let file = ["--settings", directory.appendingPathComponent("settings.json").path] + Self.aesKey
            let environment = ["HERMES_PORT": "9000", "HERMES_LOG_LEVEL": "notice"]
            // The file alone
            let fromFile = try await Self.settings(file)
            #expect(fromFile.location == .sqlite(path: "from-file.sqlite"))
            #expect(fromFile.collector.port == 7000)
            #expect(fromFile.collector.retentionDays == 30)
            #expect(fromFile.logLevel == .debug)
            // The environment over the file
            let fromEnvironment = try await Self.settings(file, environment: environment)
            #expect(fromEnvironment.collector.port == 9000)
            #expect(fromEnvironment.logLevel == .notice)
            #expect(fromEnvironment.collector.retentionDays == 30)
            // A flag over both
            let fromFlag = try await Self.settings(file + ["--port", "8000"], environment: environment)
            #expect(fromFlag.collector.port == 8000)
        }
    }

    @Test(arguments: [
        (aesKey + ["--app-key", "a"], "Give --admin-token or --admin-token-file: the admin and event endpoints need it."),
        (aesKey + ["--admin-token", "t"], "Give at least one --app-key (or --app-key-file): uploads without a known app key are refused."),
        (
            ["--app-key", "a", "--admin-token", "t"],
            "Give at least one decryption key: --v1-key with --v1-iv, --aes-key(-file) or --hpke-private-key(-file)."
        ),
        (aesKey + ["--app-key-file", "/nonexistent/keys", "--admin-token", "t"], "--app-key-file: cannot read /nonexistent/keys."),
        (aesKey + ["--app-key", "a", "--admin-token", "t", "--port", "70000"], "--port must be from 0 to 65535."),
        (aesKey + ["--app-key", "a", "--admin-token", "t", "--retention-days", "0"], "--retention-days must be at least 1."),
        (
            aesKey + ["--app-key", "a", "--admin-token", "t", "--sync-history-days", "7"],
            "--sync-history-days and --sync-require-credentials need --sync-schema."
        ),
        (
            aesKey + ["--app-key", "a", "--admin-token", "t", "--sync-schema", "/nonexistent/schema.json"],
            "--sync-schema: cannot read /nonexistent/schema.json."
        ),
    ])
    func missingOrWrongSettingsAreRefusedWithTheirMessage(arguments: [String], message: String) async {
        await #expect {
            _ = try await Self.settings(["--storage", "c.sqlite"] + arguments)
        } throws: { error in
            HermesCommand.message(for: error) == message
        }
    }

    @Test func withoutAStoreItAsksForOne() async {
        await #expect {
            _ = try await Self.settings(Self.aesKey + ["--app-key", "a", "--admin-token", "t"])
        } throws: { error in
            HermesCommand.message(for: error)
                == "Give --storage (a postgres:// URL or a SQLite file), HERMES_STORAGE or \"storage\" in the settings file."
        }
        let fromEnvironment = try? await Self.settings(
            Self.aesKey + ["--app-key", "a", "--admin-token", "t"], environment: ["HERMES_STORAGE": "postgres://db/h"])
        #expect(fromEnvironment?.location == .postgres(url: "postgres://db/h"))
    }

    @Test(arguments: [
        (["--db", "a.sqlite"], "--db was retired: give --storage a.sqlite (a SQLite file, or a postgres:// URL)."),
        (["--admin-token", "t", "--admin-token-file", "/nonexistent"], "Give --admin-token or --admin-token-file, not both."),
    ])
    func conflictingFlagsAreRefusedWhenParsed(arguments: [String], message: String) {
        #expect {
            _ = try HermesCommand.parseAsRoot(["collector", "serve"] + arguments)
        } throws: { error in
            HermesCommand.message(for: error) == message
        }
    }

    @Test func benchCollectorRefusesSeveralInstancesOnOneSQLiteFile() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["bench", "collector", "--instances", "2"])
        } throws: { error in
            HermesCommand.message(for: error) == "SQLite serves one collector per file: use --instances 1, or --storage postgres://…."
        }
    }

    /// The example schema shipped in docs/examples.
    static let exampleSchema = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/examples/sync-schema.json").path

    @Test func syncSchemaFileTurnsOnRecordSyncBesideTheCollectorsDatabase() async throws {
        try await Self.withFiles([:]) { directory in
            // Given serve with the example schema from the environment and its history days as a flag
            let database = directory.appendingPathComponent("c.sqlite").path
            let settings = try await Self.settings(
                Self.aesKey + ["--storage", database, "--app-key", "a", "--admin-token", "t", "--port", "0", "--sync-history-days", "7"],
                environment: ["HERMES_SYNC_SCHEMA": Self.exampleSchema]
            )
            let rules = try #require(settings.syncRules)
            #expect(rules.schema.types.map(\.name) == ["teams", "players", "matches", "goals"])
            #expect(rules.historyDays == 7)
            // When a device posts a change set creating a team and a player of it
            let body = #"""
                {"clientID":"ipad-1","schemaVersion":1,"maxRevision":0,"changeSets":[{"sequence":1,"types":["teams","players"],
                "teams":{"create":[-1],"update":[],"delete":[],"attributes":{"-1":{"name":"Blue"}}},
                "players":{"create":[-2],"update":[],"delete":[],"attributes":{"-2":{"name":"Ada","team_id":-1}}}}]}
                """#
            var logger = Logger(label: "hermes.serve.tests")
            logger.logLevel = .error
            let response = try await CollectorServeCommand.serve(settings, logger: logger, stopsOnSignals: false) { server in
                let request = TransportRequest(
                    method: "POST", url: URL(string: "http://127.0.0.1:\(server.port)\(HermesPath.sync)")!,
                    headers: ["X-Hermes-App-Key": "a", "Content-Type": "application/json"], body: Array(body.utf8)
                )
                do {
                    let response = try await PlatformTransport().send(request)
                    try await server.shutdown()
                    return response
                } catch {
                    try? await server.shutdown()
                    throw error
                }
            }
            // Then the collector applied it, answering server ids, and stored it in the sync file beside its database
            #expect(response.status == 200)
            let answer = try SyncAnswer(jsonBytes: response.body)
            #expect(answer.maxRevision == 1)
            let applied = try #require(answer.outcomes.first)
            #expect(applied.conflict == false)
            #expect(applied.entries.map(\.oldID) == [-1, -2])
            #expect(applied.entries.last?.record.attributes?["team_id"] == .int(applied.entries[0].record.id))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("c-sync.sqlite").path))
        }
    }

    @Test func syncSchemaThatIsWrongIsRefusedSayingWhy() async throws {
        try await Self.withFiles([
            "schema.json":
                #"{"version": 1, "types": [{"name": "players", "attributes": [{"name": "team_id", "kind": "reference", "references": "teams"}]}]}"#
        ]) { directory in
            await #expect {
                _ = try await Self.settings(
                    Self.aesKey + [
                        "--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t",
                        "--sync-schema", directory.appendingPathComponent("schema.json").path,
                    ])
            } throws: { error in
                HermesCommand.message(for: error) == "--sync-schema: players.team_id refers to teams, not a type of the schema"
            }
        }
    }

    @Test func serveTakesALogLevelAndJSON() throws {
        let serve = try #require(
            try HermesCommand.parseAsRoot([
                "collector", "serve", "--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t",
                "--aes-key", "1:000102030405060708090a0b0c0d0e0f", "--log-level", "debug", "--log-json",
            ]) as? CollectorServeCommand)
        #expect(serve.logLevel == .debug)
        #expect(serve.logJSON)
    }
}
