import ArgumentParser
import Configuration
import Foundation
import HermesCollector
import HermesWire
import Logging
import SystemPackage

/// What `collector serve` runs with: its flags, then `HERMES_<NAME>` environment variables,
/// then the `--settings` JSON file (swift-configuration's providers, in that order), then the
/// defaults; checked whole.
struct ServeSettings {
    var location: StorageLocation
    var collector: CollectorConfiguration
    var logLevel: Logger.Level
    var logJSON: Bool
    /// Record sync's rules, when a sync schema is given.
    var syncRules: SyncRules?

    init(_ flags: CollectorServeCommand, environment: [String: String]) async throws {
        var providers: [any ConfigProvider] = [EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: "hermes")]
        if let path = flags.settings {
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
            } catch {
                throw ValidationError("--settings: cannot read \(path) as a JSON object of settings.")
            }
        }
        let reader = ConfigReader(providers: providers)
        func string(_ flag: String?, _ key: String, secret: Bool = false) -> String? {
            flag ?? reader.string(forKey: ConfigKey(key), isSecret: secret)
        }
        func int(_ flag: Int?, _ key: String) -> Int? { flag ?? reader.int(forKey: ConfigKey(key)) }

        guard let storage = string(flags.storage, "storage", secret: true).map(StorageLocation.init) else {
            throw ValidationError("Give --storage (a postgres:// URL or a SQLite file), HERMES_STORAGE or \"storage\" in the settings file.")
        }
        location = storage

        var appKeys = flags.appKeys + (reader.stringArray(forKey: "appKeys", isSecret: true) ?? [])
        if let file = string(flags.appKeyFile, "appKeyFile") { appKeys += try SecretFile.lines(file, for: "--app-key-file") }
        appKeys = appKeys.filter { !$0.isEmpty }
        guard !appKeys.isEmpty else {
            throw ValidationError("Give at least one --app-key (or --app-key-file): uploads without a known app key are refused.")
        }
        let tokenFile = flags.adminToken == nil ? string(flags.adminTokenFile, "adminTokenFile") : nil
        let token =
            try tokenFile.map { try SecretFile.read($0, for: "--admin-token-file") } ?? string(flags.adminToken, "adminToken", secret: true) ?? ""
        guard !token.isEmpty else {
            throw ValidationError("Give --admin-token or --admin-token-file: the admin and event endpoints need it.")
        }

        let port = int(flags.port, "port") ?? 8080
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        let maxBodyBytes = int(flags.maxBodyBytes, "maxBodyBytes") ?? 4 << 20
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive.") }
        let retentionDays = int(flags.retentionDays, "retentionDays")
        if let retentionDays, retentionDays < 1 { throw ValidationError("--retention-days must be at least 1.") }
        guard let logLevel = flags.logLevel ?? Logger.Level(rawValue: reader.string(forKey: "logLevel") ?? "info") else {
            throw ValidationError("logLevel must be trace, debug, info, notice, warning, error or critical.")
        }
        self.logLevel = logLevel
        logJSON = flags.logJSON || reader.bool(forKey: "logJson", default: false)

        var keys = flags.keys
        keys.aesKeyFiles += string(nil, "aesKeyFile").map { [$0] } ?? []
        keys.hpkePrivateKeyFiles += string(nil, "hpkePrivateKeyFile").map { [$0] } ?? []
        collector = CollectorConfiguration(
            host: string(flags.host, "host") ?? "127.0.0.1",
            port: port,
            appKeys: Set(appKeys),
            adminToken: token,
            keyring: try keys.keyring(),
            maxBodyBytes: maxBodyBytes,
            initialConfiguration: try Self.initialConfiguration(string(flags.config, "config"))
        )
        collector.retentionDays = retentionDays
        if let perAddress = int(flags.maxConnectionsPerAddress, "maxConnectionsPerAddress") {
            guard perAddress >= 0 else { throw ValidationError("--max-connections-per-address must be 0 (no limit) or more.") }
            collector.maxConnectionsPerAddress = perAddress
        }
        if let inFlight = int(flags.maxBytesInFlight, "maxBytesInFlight") {
            guard inFlight >= maxBodyBytes else { throw ValidationError("--max-bytes-in-flight must be at least --max-body-bytes.") }
            collector.maxBytesInFlight = inFlight
        }

        let syncHistoryDays = int(flags.syncHistoryDays, "syncHistoryDays")
        if let syncHistoryDays, syncHistoryDays < 1 { throw ValidationError("--sync-history-days must be at least 1.") }
        if let path = string(flags.syncSchema, "syncSchema") {
            syncRules = SyncRules(schema: try Self.syncSchema(path), historyDays: syncHistoryDays ?? 30)
        } else if syncHistoryDays != nil {
            throw ValidationError("--sync-history-days needs --sync-schema.")
        }
    }

    /// The schema of `--sync-schema`, checked whole.
    private static func syncSchema(_ path: String) throws -> SyncSchema {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--sync-schema: cannot read \(path).")
        }
        do {
            return try JSONDecoder().decode(SyncSchema.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw ValidationError("--sync-schema: \(context.debugDescription)")
        } catch {
            throw ValidationError("--sync-schema: \(path) is not a sync schema (version, types with name and attributes): \(error)")
        }
    }

    /// The document of `--config`, or the built-in one.
    private static func initialConfiguration(_ path: String?) throws -> ConfigurationDocument {
        guard let path else { return .builtIn }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--config: cannot read \(path).")
        }
        do {
            return try ConfigurationDocument(jsonBytes: [UInt8](data))
        } catch {
            throw ValidationError("--config: \(error.message)")
        }
    }
}
