import ArgumentParser
import Foundation
import HermesCollector
import HermesCollectorPostgres
import HermesWire
import Logging

/// `hermes collector serve`: serves uploads, configuration, events and (with `--sync-schema`)
/// record sync from a SQLite file or a PostgreSQL database until SIGINT or SIGTERM.
///
/// Every setting can also come from a `HERMES_<OPTION>` environment variable, a file of the
/// `--secrets-dir` directory or a `--settings` JSON file (``ServeSettings``, read strictly): a
/// flag wins over the environment, which wins over the secrets, which win over the file.
struct CollectorServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Serve uploads, configuration, events (and record sync with --sync-schema) from a SQLite file or PostgreSQL until SIGINT or SIGTERM.",
        discussion: """
            Each option can also be set by an environment variable HERMES_<OPTION> (--retention-days: \
            HERMES_RETENTION_DAYS; --app-key: HERMES_APP_KEY, lists comma-separated), by a file of the \
            --secrets-dir directory named for the option (admin-token or HERMES_ADMIN_TOKEN; lists one \
            per line), or by a key of the --settings JSON or YAML file (retentionDays, appKey); a flag wins over \
            the environment, which wins over the secrets, which win over the file. An unknown key or \
            file, or a value that cannot be read, stops the start, naming it; \
            --check prints the effective settings (secrets redacted) and exits.
            """
    )

    @Option(
        help:
            "A JSON file of settings (YAML when its name ends in .yaml or .yml), keyed by the options' names in camelCase (\"storage\", \"retentionDays\", \"adminTokenFile\", …)."
    )
    var settings: String?

    @Option(
        help: ArgumentHelp(
            "A directory of secret files, one setting a file named for its option (admin-token, storage, app-key) or its variable (HERMES_ADMIN_TOKEN), as container platforms mount them (default: $HERMES_SECRETS_DIR).",
            valueName: "directory"))
    var secretsDir: String?

    @Flag(help: "Check the settings, print the effective ones (secrets redacted) and exit without serving.")
    var check = false

    @Option(help: "The address to listen on. (default: 127.0.0.1)")
    var host: String?

    @Option(help: "The port to listen on; 0 picks a free one. (default: 8080)")
    var port: Int?

    /// Retired in favour of `--storage`; kept only to say so.
    @Option(help: .hidden)
    var db: String?

    @Option(
        help: ArgumentHelp(
            "Where to store: a postgres://user:password@host:port/database URL (several collectors may share it) or a SQLite file. Required: this, $HERMES_STORAGE (keeps a password out of ps) or the settings file.",
            valueName: "url-or-path"
        ))
    var storage: String?

    @Option(
        name: .customLong("app-key"),
        help:
            "An app key uploads may carry in X-Hermes-App-Key, then the namespaces it may write if only some (\"KEY shop hermes\"). Repeatable. Required: at least one, here or in --app-key-file."
    )
    var appKeys: [String] = []

    @Option(
        name: .customLong("app-key-file"),
        help: "A file of app keys, one per line, each with the namespaces it may write if only some (kept out of ps).")
    var appKeyFile: String?

    @Option(name: .customLong("admin-token"), help: "The bearer token of the admin and event endpoints. Required: this or --admin-token-file.")
    var adminToken: String?

    @Option(name: .customLong("admin-token-file"), help: "A file holding the admin token (kept out of ps).")
    var adminTokenFile: String?

    @Option(help: "A configuration document (JSON with revision and namespaces) to serve while the database holds none.")
    var config: String?

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted, in bytes. (default: 4194304)")
    var maxBodyBytes: Int?

    @Option(
        name: .customLong("max-connections-per-address"),
        help: "The most connections held at once from one address; 0 for no limit (behind a proxy). (default: 512)")
    var maxConnectionsPerAddress: Int?

    @Option(
        name: .customLong("token"),
        help:
            "A bearer token and what it may do besides the admin token: \"TOKEN ingest\" (upload as an app key does), \"TOKEN read\", \"TOKEN configure\", \"TOKEN admin\" (several scopes allowed). Repeatable."
    )
    var tokens: [String] = []

    @Option(name: .customLong("token-file"), help: "A file of tokens, one per line, each with its scopes (kept out of ps). Repeatable.")
    var tokenFiles: [String] = []

    @Option(
        name: .customLong("app-key-rate"),
        help:
            "The uploads a second each app key may make on average, five seconds' worth at once, per instance; past it: 429 with Retry-After. (default: no limit)"
    )
    var appKeyRate: Int?

    @Option(
        name: .customLong("tls-cert-file"),
        help: "Serve HTTPS with this PEM certificate chain (the server's certificate first); with --tls-key-file. (default: plain HTTP)")
    var tlsCertFile: String?

    @Option(name: .customLong("tls-key-file"), help: "The PEM private key of --tls-cert-file's certificate.")
    var tlsKeyFile: String?

    @Option(
        name: .customLong("max-bytes-in-flight"),
        help: "The most bytes all requests in flight may hold (bodies and what they decompress to); past it: 503. (default: 134217728)")
    var maxBytesInFlight: Int?

    @Option(
        name: .customLong("retention-days"),
        help: "Keep this many days of records (by CREATE_TIME); older whole days are removed at start and hourly. Default: keep everything.")
    var retentionDays: Int?

    @Option(
        name: .customLong("sync-schema"),
        help: ArgumentHelp(
            "Serve record sync (POST /v1/sync) for the schema in this JSON file (docs/examples/sync-schema.json). Its records live beside the collector's: in a SQLite file NAME-sync.sqlite next to the database, or in the sync_ tables of the PostgreSQL database.",
            valueName: "file"
        ))
    var syncSchema: String?

    @Option(
        name: .customLong("sync-history-days"),
        help:
            "With --sync-schema: days of deleted records (tombstones) and change set outcomes kept; a device older than that gets a full copy. (default: 30)"
    )
    var syncHistoryDays: Int?

    @Flag(
        name: .customLong("sync-require-credentials"),
        help:
            "With --sync-schema: sync only devices with a credential (hermes sync devices add); without it, a device with none syncs under the schema's everyone rules."
    )
    var syncRequireCredentials = false

    @Option(name: .customLong("log-level"), help: "trace, debug (adds a line per request), info, notice, warning, error or critical. (default: info)")
    var logLevel: Logger.Level?

    @Flag(name: .customLong("log-json"), help: "Log one JSON object per line instead of text.")
    var logJSON = false

    @OptionGroup
    var keys: CollectorKeyOptions

    /// The checks the flags alone decide; the rest waits for the environment and the file.
    func validate() throws {
        if let db {
            throw ValidationError("--db was retired: give --storage \(db) (a SQLite file, or a postgres:// URL).")
        }
        if adminToken != nil, adminTokenFile != nil {
            throw ValidationError("Give --admin-token or --admin-token-file, not both.")
        }
    }

    func run() async throws {
        let settings = try await resolved()
        if check {
            print(settings.summary.joined(separator: "\n"))
            return
        }
        if settings.logJSON {
            LoggingSystem.bootstrap(JSONLogHandler.init)
        } else {
            LoggingSystem.bootstrap(TextLogHandler.init)
        }
        var logger = Logger(label: "hermes.collector")
        logger.logLevel = settings.logLevel
        logger.info("settings", metadata: ["effective": "\(settings.summary.joined(separator: "; "))"])
        if !settings.unknownEnvironmentNames.isEmpty {
            logger.warning(
                "environment variables that name no setting were ignored",
                metadata: ["names": "\(settings.unknownEnvironmentNames.joined(separator: ","))"])
        }
        try await Self.serve(settings, logger: logger, stopsOnSignals: true) { server in
            try await server.waitUntilStopped()
        }
        logger.info("collector stopped")
    }

    /// Opens the stores `settings` name (the collector's, and record sync's when it is on),
    /// starts a collector on them, runs `body` with it, and closes the stores once it returns.
    static func serve<T>(
        _ settings: ServeSettings, logger: Logger, stopsOnSignals: Bool, _ body: (CollectorServer) async throws -> T
    ) async throws -> T {
        try await settings.location.withOpen(logger: logger) { storage in
            guard let rules = settings.syncRules else {
                let server = try await CollectorServer.start(
                    configuration: settings.collector, storage: storage, logger: logger, stopsOnSignals: stopsOnSignals
                )
                return try await body(server)
            }
            return try await settings.location.withOpenSync(logger: logger) { syncStorage in
                let server = try await CollectorServer.start(
                    configuration: settings.collector, storage: storage, sync: SyncServer(storage: syncStorage, rules: rules),
                    logger: logger, stopsOnSignals: stopsOnSignals
                )
                logger.info(
                    "record sync served",
                    metadata: [
                        "schema_version": "\(rules.schema.version)", "types": "\(rules.schema.types.count)",
                        "history_days": "\(rules.historyDays.map(String.init) ?? "all")",
                    ])
                return try await body(server)
            }
        }
    }

    /// The settings with the environment and the `--settings` file layered under the flags.
    /// - Throws: `ValidationError` for a setting that is missing, out of range or unreadable.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> ServeSettings {
        try await ServeSettings(self, environment: environment)
    }
}
