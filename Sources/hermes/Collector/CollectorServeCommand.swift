import ArgumentParser
import Foundation
import HermesCollector
import HermesWire
import Logging

/// `hermes collector serve`: serves uploads, configuration and events from a SQLite file or a
/// PostgreSQL database until SIGINT or SIGTERM.
struct CollectorServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve uploads, configuration and events from a SQLite file or PostgreSQL until SIGINT or SIGTERM."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: "The SQLite database file (created if missing).")
    var db: String?

    @Option(help: ArgumentHelp(
        "Where to store: a postgres://user:password@host:port/database URL (several collectors may share it) or a SQLite file. Required: this, --db, or $\(StorageLocation.environmentVariable) (keeps a password out of ps).",
        valueName: "url-or-path"
    ))
    var storage: String?

    @Option(name: .customLong("app-key"), help: "An app key uploads may carry in X-Hermes-App-Key. Repeatable. Required: at least one, here or in --app-key-file.")
    var appKeys: [String] = []

    @Option(name: .customLong("app-key-file"), help: "A file of app keys, one per line (kept out of ps).")
    var appKeyFile: String?

    @Option(name: .customLong("admin-token"), help: "The bearer token of the admin and event endpoints. Required: this or --admin-token-file.")
    var adminToken: String?

    @Option(name: .customLong("admin-token-file"), help: "A file holding the admin token (kept out of ps).")
    var adminTokenFile: String?

    @Option(help: "A configuration document (JSON with revision and namespaces) to serve while the database holds none.")
    var config: String?

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted, in bytes.")
    var maxBodyBytes = 4 << 20

    @Option(name: .customLong("retention-days"), help: "Keep this many days of records (by CREATE_TIME); older whole days are removed at start and hourly. Default: keep everything.")
    var retentionDays: Int?

    @Option(name: .customLong("log-level"), help: "trace, debug (adds a line per request), info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Flag(name: .customLong("log-json"), help: "Log one JSON object per line instead of text.")
    var logJSON = false

    @OptionGroup
    var keys: CollectorKeyOptions

    func validate() throws {
        if db != nil, storage != nil {
            throw ValidationError("Give --db or --storage, not both.")
        }
        guard location != nil else {
            throw ValidationError("Give --storage (a postgres:// URL or a SQLite file), --db, or set \(StorageLocation.environmentVariable).")
        }
        guard try !allAppKeys().isEmpty else {
            throw ValidationError("Give at least one --app-key (or --app-key-file): uploads without a known app key are refused.")
        }
        guard adminToken == nil || adminTokenFile == nil else {
            throw ValidationError("Give --admin-token or --admin-token-file, not both.")
        }
        guard try !token().isEmpty else {
            throw ValidationError("Give --admin-token or --admin-token-file: the admin and event endpoints need it.")
        }
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be from 0 to 65535.")
        }
        if let retentionDays, retentionDays < 1 {
            throw ValidationError("--retention-days must be at least 1.")
        }
        guard maxBodyBytes > 0 else {
            throw ValidationError("--max-body-bytes must be positive.")
        }
        _ = try keys.keyring()
        _ = try initialConfiguration()
    }

    func run() async throws {
        if logJSON {
            LoggingSystem.bootstrap(JSONLogHandler.init)
        } else {
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
        }
        var logger = Logger(label: "hermes.collector")
        logger.logLevel = logLevel
        var configuration = CollectorConfiguration(
            host: host,
            port: port,
            appKeys: try allAppKeys(),
            adminToken: try token(),
            keyring: try keys.keyring(),
            maxBodyBytes: maxBodyBytes,
            initialConfiguration: try initialConfiguration()
        )
        configuration.retentionDays = retentionDays
        guard let location else { throw ValidationError("Give --storage or --db.") }
        let store = try await location.open(logger: logger)
        do {
            let server = try await CollectorServer.start(
                configuration: configuration, storage: store.storage, logger: logger, stopsOnSignals: true
            )
            try await server.waitUntilStopped()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        logger.info("collector stopped")
    }

    /// `--app-key` values and the lines of `--app-key-file`.
    private func allAppKeys() throws -> Set<String> {
        let fromFile = try appKeyFile.map { try SecretFile.lines($0, for: "--app-key-file") } ?? []
        return Set((appKeys + fromFile).filter { !$0.isEmpty })
    }

    /// `--admin-token`, or the contents of `--admin-token-file`, or empty.
    private func token() throws -> String {
        try adminTokenFile.map { try SecretFile.read($0, for: "--admin-token-file") } ?? adminToken ?? ""
    }

    /// `--storage`, else `--db`, else `$HERMES_STORAGE`.
    private var location: StorageLocation? {
        if let storage { return StorageLocation(storage) }
        if let db { return .sqlite(path: db) }
        guard let value = ProcessInfo.processInfo.environment[StorageLocation.environmentVariable], !value.isEmpty else { return nil }
        return StorageLocation(value)
    }

    /// The document of `--config`, or the built-in one.
    private func initialConfiguration() throws -> ConfigurationDocument {
        guard let config else { return .builtIn }
        guard let data = FileManager.default.contents(atPath: config) else {
            throw ValidationError("--config: cannot read \(config).")
        }
        do {
            return try ConfigurationDocument(jsonBytes: [UInt8](data))
        } catch {
            throw ValidationError("--config: \(error.message)")
        }
    }
}
