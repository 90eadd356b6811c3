import ArgumentParser
import Foundation
import HermesCollector
import HermesWire
import Logging

/// What `collector serve` runs with: its flags, then `HERMES_<OPTION>` environment variables,
/// then the `--secrets-dir` files, then the `--settings` JSON file (``SettingSources``,
/// strictly), then the defaults; checked whole, with every missing required setting named at once.
struct ServeSettings {
    var location: StorageLocation
    var collector: CollectorConfiguration
    var logLevel: Logger.Level
    var logJSON: Bool
    /// Record sync's rules, when a sync schema is given.
    var syncRules: SyncRules?
    /// Where each setting that is not a default came from, for ``summary``.
    private var sources: [String: String] = [:]
    /// `HERMES_` variables that name no setting (warned about at start).
    var unknownEnvironmentNames: [String] = []

    /// Resolves `flags` over `environment` and the settings file.
    /// - Throws: `ValidationError` naming what is missing or cannot be read.
    init(_ flags: CollectorServeCommand, environment: [String: String]) async throws {
        do {
            try self.init(resolving: flags, environment: environment)
        } catch let error as SettingsError {
            throw ValidationError(error.message)
        }
    }

    private init(resolving flags: CollectorServeCommand, environment: [String: String]) throws {
        let secretsDirectory = flags.secretsDir ?? environment[SettingSources.secretsDirectoryVariable]
        let read = try SettingSources(environment: environment, settingsFile: flags.settings, secretsDirectory: secretsDirectory)
        unknownEnvironmentNames = read.unknownEnvironmentNames
        var sources: [String: String] = [:]
        /// The flag's value, or the sources'; remembers which.
        func pick<T>(_ flag: T?, _ option: String, _ fromSources: () throws -> T?) throws -> T? {
            if let flag {
                sources[option] = "flag"
                return flag
            }
            let value = try fromSources()
            if value != nil { sources[option] = read.source(option) }
            return value
        }
        func text(_ flag: String?, _ option: String) throws -> String? { try pick(flag, option) { try read.text(option) } }
        func number(_ flag: Int?, _ option: String) throws -> Int? { try pick(flag, option) { try read.wholeNumber(option) } }
        func list(_ flags: [String], _ option: String) throws -> [String] {
            try pick(flags.isEmpty ? nil : flags, option) {
                let values = try read.list(option); return values.isEmpty ? nil : values
            } ?? []
        }

        var missing: [String] = []
        let storage = try text(flags.storage, "storage").map(StorageLocation.init)
        if storage == nil {
            missing.append("Give --storage (a postgres:// URL or a SQLite file), HERMES_STORAGE or \"storage\" in the settings file.")
        }

        var appKeyEntries = try list(flags.appKeys, "app-key")
        if let file = try text(flags.appKeyFile, "app-key-file") { appKeyEntries += try SecretFile.lines(file, for: "--app-key-file") }
        // An entry is a key, then the namespaces it may write if it is bound to some.
        var appKeys: [String] = []
        var appKeyNamespaces: [String: Set<String>] = [:]
        for (key, namespaces) in Self.secretsWithWords(appKeyEntries) {
            appKeys.append(key)
            if !namespaces.isEmpty { appKeyNamespaces[key, default: []].formUnion(namespaces) }
        }
        if appKeys.isEmpty { missing.append("Give at least one --app-key (or --app-key-file): uploads without a known app key are refused.") }

        let tokenFile = flags.adminToken == nil ? try text(flags.adminTokenFile, "admin-token-file") : nil
        let token = try tokenFile.map { try SecretFile.read($0, for: "--admin-token-file") } ?? text(flags.adminToken, "admin-token") ?? ""
        if token.isEmpty { missing.append("Give --admin-token or --admin-token-file: the admin and event endpoints need it.") }

        var keys = flags.keys
        keys.v1Key = try text(keys.v1Key, "v1-key")
        keys.v1IV = try text(keys.v1IV, "v1-iv")
        keys.aesKeys = try list(keys.aesKeys, "aes-key")
        keys.hpkePrivateKeys = try list(keys.hpkePrivateKeys, "hpke-private-key")
        keys.aesKeyFiles = try list(keys.aesKeyFiles, "aes-key-file")
        keys.hpkePrivateKeyFiles = try list(keys.hpkePrivateKeyFiles, "hpke-private-key-file")
        if !keys.hasKey {
            missing.append("Give at least one decryption key: --v1-key with --v1-iv, --aes-key(-file) or --hpke-private-key(-file).")
        }
        guard let storage, missing.isEmpty else { throw ValidationError(missing.joined(separator: "\n")) }
        location = storage

        let port = try number(flags.port, "port") ?? 8080
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        let maxBodyBytes = try number(flags.maxBodyBytes, "max-body-bytes") ?? 4 << 20
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive.") }
        let retentionDays = try number(flags.retentionDays, "retention-days")
        if let retentionDays, retentionDays < 1 { throw ValidationError("--retention-days must be at least 1.") }
        let levelName = try text(flags.logLevel?.rawValue, "log-level") ?? "info"
        guard let logLevel = Logger.Level(rawValue: levelName) else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
        }
        self.logLevel = logLevel
        logJSON = try pick(flags.logJSON ? true : nil, "log-json") { try read.flag("log-json") } ?? false

        collector = CollectorConfiguration(
            host: try text(flags.host, "host") ?? "127.0.0.1",
            port: port,
            appKeys: Set(appKeys),
            adminToken: token,
            keyring: try keys.keyring(),
            maxBodyBytes: maxBodyBytes,
            initialConfiguration: try Self.initialConfiguration(text(flags.config, "config"))
        )
        collector.retentionDays = retentionDays
        collector.appKeyNamespaces = appKeyNamespaces
        var tokenEntries = try list(flags.tokens, "token")
        for file in try list(flags.tokenFiles, "token-file") { tokenEntries += try SecretFile.lines(file, for: "--token-file") }
        collector.tokens = try Self.tokens(tokenEntries)
        if let perAddress = try number(flags.maxConnectionsPerAddress, "max-connections-per-address") {
            guard perAddress >= 0 else { throw ValidationError("--max-connections-per-address must be 0 (no limit) or more.") }
            collector.maxConnectionsPerAddress = perAddress
        }
        if let rate = try number(flags.appKeyRate, "app-key-rate") {
            guard rate > 0 else { throw ValidationError("--app-key-rate must be at least 1 upload a second.") }
            collector.appKeyRequestsPerSecond = Double(rate)
        }
        if let inFlight = try number(flags.maxBytesInFlight, "max-bytes-in-flight") {
            guard inFlight >= maxBodyBytes else { throw ValidationError("--max-bytes-in-flight must be at least --max-body-bytes.") }
            collector.maxBytesInFlight = inFlight
        }

        switch (try text(flags.tlsCertFile, "tls-cert-file"), try text(flags.tlsKeyFile, "tls-key-file")) {
        case (let certificate?, let key?):
            let tls = CollectorTLS(certificateChainFile: certificate, privateKeyFile: key)
            do {
                try tls.check()
            } catch {
                throw ValidationError("--tls-cert-file, --tls-key-file: \(error.message)")
            }
            collector.tls = tls
        case (nil, nil): break
        default: throw ValidationError("Give --tls-cert-file and --tls-key-file together, or neither for plain HTTP.")
        }

        let syncHistoryDays = try number(flags.syncHistoryDays, "sync-history-days")
        if let syncHistoryDays, syncHistoryDays < 1 { throw ValidationError("--sync-history-days must be at least 1.") }
        let requireCredentials = try pick(flags.syncRequireCredentials ? true : nil, "sync-require-credentials") {
            try read.flag("sync-require-credentials")
        }
        if let path = try text(flags.syncSchema, "sync-schema") {
            syncRules = SyncRules(
                schema: try Self.syncSchema(path), historyDays: syncHistoryDays ?? 30, requireCredentials: requireCredentials ?? false)
        } else if syncHistoryDays != nil || requireCredentials != nil {
            throw ValidationError("--sync-history-days and --sync-require-credentials need --sync-schema.")
        }
        self.sources = sources
    }

    /// The effective settings, one `name = value (source)` line each, secrets redacted: what
    /// `serve --check` prints and every start logs.
    var summary: [String] {
        let keyring = collector.keyring
        let tokens = collector.tokens.values.map { $0.map(\.rawValue).sorted().joined(separator: "+") }.sorted()
        var lines: [(String, String)] = [
            ("storage", location.postgresURL == nil ? Self.sqlitePath(location) : "postgres://… (redacted)"),
            ("host", collector.host), ("port", String(collector.port)),
            ("tls-cert-file", collector.tls?.certificateChainFile ?? "none (plain HTTP)"),
            ("tls-key-file", collector.tls?.privateKeyFile ?? "none"),
            ("app-key", "\(collector.appKeys.count) (redacted), \(collector.appKeyNamespaces.count) bound to namespaces"),
            ("token", tokens.isEmpty ? "none" : tokens.joined(separator: ", ") + " (redacted)"),
            ("admin-token", "(redacted)"),
            ("decryption keys", keyring.keyNames.joined(separator: ", ")),
            ("max-body-bytes", String(collector.maxBodyBytes)), ("max-bytes-in-flight", String(collector.maxBytesInFlight)),
            ("max-connections-per-address", String(collector.maxConnectionsPerAddress)),
            ("app-key-rate", collector.appKeyRequestsPerSecond.map { "\(Int($0)) a second per app key" } ?? "no limit"),
            ("retention-days", collector.retentionDays.map(String.init) ?? "keep everything"),
            ("sync-schema", syncRules.map { "version \($0.schema.version), \($0.schema.types.count) types" } ?? "off"),
            ("sync-require-credentials", syncRules.map { String($0.requireCredentials) } ?? "off"),
            ("log-level", logLevel.rawValue), ("log-json", String(logJSON)),
        ]
        lines = lines.map { name, value in (name, value + (sources[name].map { " (\($0))" } ?? "")) }
        return lines.map { "\($0.0) = \($0.1)" }
    }

    /// Tokens with their scopes, from entries of a token and its scopes.
    private static func tokens(_ entries: [String]) throws -> [String: Set<TokenScope>] {
        var tokens: [String: Set<TokenScope>] = [:]
        for (token, words) in secretsWithWords(entries) {
            let known = words.compactMap(TokenScope.init(rawValue:))
            guard !known.isEmpty, known.count == words.count else {
                let names = TokenScope.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--token: give each token with its scopes (\(names)), as \"TOKEN read\".")
            }
            tokens[token, default: []].formUnion(known)
        }
        return tokens
    }

    /// Entries of a secret followed by words (`KEY shop hermes`, `TOKEN read`), split at
    /// whitespace; blank entries are skipped.
    private static func secretsWithWords(_ entries: [String]) -> [(secret: String, words: [String])] {
        entries.compactMap { entry in
            let words = entry.split(whereSeparator: \.isWhitespace).map(String.init)
            return words.first.map { ($0, Array(words.dropFirst())) }
        }
    }

    private static func sqlitePath(_ location: StorageLocation) -> String {
        if case .sqlite(let path) = location { return path }
        return ""
    }

    /// The schema of `--sync-schema`, checked whole.
    static func syncSchema(_ path: String) throws -> SyncSchema {
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
