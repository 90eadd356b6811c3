import Foundation
public import HermesWire

/// Everything a collector needs to know before it starts: where to listen, whom to trust, which
/// keys open packets, and the configuration to serve when the store holds none.
///
/// ```swift
/// var configuration = CollectorConfiguration(
///     appKeys: ["demo-app"], adminToken: token,
///     keyring: Keyring([try AESGCMCipher(key: key, keyID: 1)])
/// )
/// configuration.port = 0   // any free port; learn it from `onServerRunning`
/// ```
public struct CollectorConfiguration: Sendable {
    /// The address to listen on; loopback by default.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The app keys uploads may carry in `X-Hermes-App-Key`; any other key is refused (401).
    public var appKeys: Set<String>
    /// The namespaces an app key may write, for the keys bound to some: an upload with such a key
    /// to another namespace is refused (403 `namespaceNotAllowed`). A key not listed here may
    /// write any namespace.
    public var appKeyNamespaces: [String: Set<String>] = [:]
    /// The bearer token the admin and event endpoints require.
    public var adminToken: String
    /// More bearer tokens, each with what it may do: several may be valid at once, so a token
    /// is rotated by adding the new one, moving its users over, then removing the old one.
    public var tokens: [String: Set<TokenScope>] = [:]
    /// The ciphers upload bodies may be sealed with (v1: the AES-128-CBC cipher with key id 0).
    public var keyring: Keyring
    /// The largest request body accepted; larger bodies get 413.
    public var maxBodyBytes: Int
    /// The most bytes one packet block may decompress to.
    public var maxBlockBytes: Int
    /// The most bytes all requests in flight may hold at once: each upload reserves its body and
    /// what its namespace lets it decompress to before reading the body, each sync request its
    /// body four times over; past the budget a request is refused with 503 and `Retry-After: 1`.
    /// 128 MiB by default.
    public var maxBytesInFlight: Int = 128 << 20
    /// The most connections held at once; more are closed as they arrive. 10,000 by default,
    /// kept a few hundred below the process's open-file limit.
    public var maxConnections: Int = 10_000
    /// The most connections held at once from one address; 0 for no such limit (set 0 behind a
    /// proxy or load balancer, where every connection comes from its address). 512 by default.
    public var maxConnectionsPerAddress: Int = 512
    /// How long a connection may take to send a complete request head, from opening or from
    /// the previous answer (so also how long an idle keep-alive connection stays open). 20 s.
    public var headTimeout: Duration = .seconds(20)
    /// How long a request body may pause between two reads. 30 s.
    public var bodyReadTimeout: Duration = .seconds(30)
    /// The configuration document served when the store holds none yet.
    public var initialConfiguration: ConfigurationDocument
    /// The deployment's own check on each record that passed the built-in ones (the fields of
    /// `RecordCheck`), or `nil` for none.
    public var recordRule: RecordRule?
    /// How many days of records to keep, by `CREATE_TIME`, or `nil` to keep everything. Older
    /// whole UTC days are removed at start and then hourly (``CollectorStorage/removeDays(before:)``).
    public var retentionDays: Int? = nil
    /// The requests a second each app key may make on average (five seconds' worth at once),
    /// counted by each instance; past it an upload is refused with 429
    /// `rateLimited` and `Retry-After`. `nil`, the default, sets no limit.
    public var appKeyRequestsPerSecond: Double? = nil
    /// HTTPS served by the collector itself, or `nil` (the default) for plain HTTP, as behind a
    /// proxy that ends TLS.
    public var tls: CollectorTLS? = nil
    /// The web console under `/console`: on by default.
    public var console = ConsoleSettings()
    /// The time in milliseconds since 1970 that stamps each upload's arrival, a sync answer and
    /// each retention pass; the system's clock by default, a fixed one in tests.
    public var wallClock: @Sendable () -> Int64 = CollectorConfiguration.systemWallClock

    /// The system's clock in milliseconds since 1970.
    public static let systemWallClock: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// A check on one record and its parsed meta: `nil` stores it; a reason (for people, without
    /// field values) refuses it alone, listed in the upload's 200 answer with the code
    /// ``CollectorError/Code/refusedByRule``. The SDK then deletes exactly that record.
    ///
    /// ```swift
    /// configuration.recordRule = { record, meta in
    ///     record.monitorType == "JZ-legacy" ? "this collector no longer stores JZ-legacy" : nil
    /// }
    /// ```
    public typealias RecordRule = @Sendable (_ record: IngestRecord, _ meta: [String: JSONValue]) -> String?

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: the address to listen on (default `127.0.0.1`).
    ///   - port: the port to listen on (default 8080; 0 for any free port).
    ///   - appKeys: the app keys uploads may carry.
    ///   - adminToken: the bearer token of the admin and event endpoints.
    ///   - keyring: the ciphers upload bodies may be sealed with.
    ///   - maxBodyBytes: the largest request body accepted (default 4 MiB).
    ///   - maxBlockBytes: the most bytes one packet block may decompress to (default 16 MiB).
    ///   - initialConfiguration: the document served when the store holds none (default `ConfigurationDocument/builtIn`).
    ///   - recordRule: the deployment's own check on each record (default none).
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        appKeys: Set<String>,
        adminToken: String,
        keyring: Keyring,
        maxBodyBytes: Int = 4 << 20,
        maxBlockBytes: Int = 16 << 20,
        initialConfiguration: ConfigurationDocument = .builtIn,
        recordRule: RecordRule? = nil
    ) {
        self.host = host
        self.port = port
        self.appKeys = appKeys
        self.adminToken = adminToken
        self.keyring = keyring
        self.maxBodyBytes = maxBodyBytes
        self.maxBlockBytes = maxBlockBytes
        self.initialConfiguration = initialConfiguration
        self.recordRule = recordRule
    }
}
