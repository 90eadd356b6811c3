public import Foundation
public import HermesWire

extension HermesClient {
    /// Everything a client needs: where to store, who the app is, where to fetch configuration,
    /// and the injected edges (transport, clock, wall time, randomness) that tests replace.
    ///
    /// ```swift
    /// let configuration = HermesClient.Configuration(
    ///     storageDirectory: dir, app: .init(name: "Demo", version: "1.2.0", build: "42"),
    ///     configURL: URL(string: "https://collector.example.com/v1/config"),
    ///     credentials: .init(appKey: "app-key", wireFormat: .v2(try AESGCMCipher(key: key, keyID: 1))))
    /// ```
    public struct Configuration: Sendable {
        /// The folder Hermes owns: the store, the configuration cache and the device id live here.
        public var storageDirectory: URL
        /// The host app's identity, written into every record.
        public var app: AppInfo
        /// Where to fetch the configuration document (`GET`); `nil` keeps the cached or built-in one.
        public var configURL: URL?
        /// The collector for namespaces whose configuration names no `url`; `nil` means the
        /// origin of ``configURL``.
        public var collectorURL: URL?
        /// How uploads authenticate and are sealed.
        public var credentials: Credentials
        /// Local defaults for business namespaces, used while the server has not configured them.
        public var namespaceDefaults: [String: NamespaceConfiguration]
        /// How often the configuration is fetched again after start.
        public var configRefreshInterval: Duration
        /// Records held in memory while the journal cannot take them (its limit reached, the
        /// disk full); past it `send` rejects with `bufferFull`.
        public var memoryBufferLimit: Int
        /// Bytes of journal segment files at most (records accepted and not yet in the store).
        /// The default, 64 MiB, holds about 150,000 records of 400 bytes: a burst several
        /// seconds long that outruns the store, or a long stretch while the store cannot be written.
        public var journalLimitBytes: Int
        /// The data protection class of the store and the journal on Apple platforms.
        public var fileProtection: FileProtection
        /// The device facts written into every record.
        public var device: DeviceInfo
        /// How long after `start()` the first upload round begins.
        public var uploadStartDelay: Duration
        /// How long an upload request may take before it counts as a network failure.
        public var requestTimeout: Duration
        /// Reports reachability and whether the network is metered.
        public var networkMonitor: any NetworkMonitor
        /// Sends HTTP requests; by default `PlatformTransport` (sockets for `http://` on Linux, URLSession otherwise).
        public var transport: any Transport
        /// Measures intervals for timers (refresh, throttles, retries).
        public var clock: any Clock<Duration>
        /// Milliseconds since 1970: `CREATE_TIME`, expiry.
        public var wallClock: @Sendable () -> Int64
        /// Seeds sampling decisions; `nil` seeds from the system's random source.
        public var randomSeed: UInt64?
        /// The consent of an installation that never stored one (``HermesClient/setConsent(_:)``
        /// stores it); `.pending` for apps that ask before collecting.
        public var initialConsent: Consent = .granted
        /// How long the app may stay in the background and keep its session (30 minutes).
        public var sessionTimeout: Duration = .seconds(30 * 60)
        /// How long ``HermesClient/run()`` gives the last flush and upload after a graceful
        /// shutdown signal before it shuts down anyway.
        public var shutdownDeadline: Duration = .seconds(5)
        /// What the client collects by itself into the `hermes` namespace: crashes, hangs,
        /// launch time, network samples.
        public var monitoring = MonitoringOptions()
        /// How often the client sends its delivery health, an `sdkHealth` record in the
        /// `hermes` namespace: the records lost on the device since the previous one, per
        /// reason, and the records waiting to upload. The first is sent once start-up
        /// housekeeping is done, then one every interval (10 minutes); `nil` or zero sends none.
        /// Like every record it is sent only while the namespace's `monitorList` has the type.
        public var healthInterval: Duration? = .seconds(600)
        /// Whether any 2xx answer to an upload counts as delivered (`false` by default).
        ///
        /// By default a batch is deleted only when the answer proves that a Hermes collector
        /// stored it: the header `X-Hermes-Batch-Ack` carries the request's batch id, or the body
        /// is a collector's answer whose `stored`, `duplicates` and `rejected` account for every
        /// record of the batch. Any other 2xx keeps the records, retries them with backoff and
        /// counts in ``Diagnostics/unacknowledged``. Turn this on only for a server of your own
        /// that answers a bare 200: it risks deleting records no collector stored whenever the
        /// URL reaches something else that answers 200 (a captive portal, a load balancer's
        /// default page, a wrong URL).
        public var acceptsUnacknowledgedSuccess = false

        /// Creates a configuration; the edges default to the real network, clocks and randomness.
        public init(
            storageDirectory: URL,
            app: AppInfo,
            configURL: URL? = nil,
            collectorURL: URL? = nil,
            credentials: Credentials,
            namespaceDefaults: [String: NamespaceConfiguration] = [:],
            configRefreshInterval: Duration = .seconds(300),
            memoryBufferLimit: Int = 10_000,
            journalLimitBytes: Int = 64 << 20,
            fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
            device: DeviceInfo = .current,
            uploadStartDelay: Duration = .seconds(3),
            requestTimeout: Duration = .seconds(30),
            networkMonitor: any NetworkMonitor = Self.defaultNetworkMonitor,
            transport: any Transport = PlatformTransport(),
            clock: any Clock<Duration> = ContinuousClock(),
            wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
            randomSeed: UInt64? = nil
        ) {
            self.storageDirectory = storageDirectory
            self.app = app
            self.configURL = configURL
            self.collectorURL = collectorURL
            self.credentials = credentials
            self.namespaceDefaults = namespaceDefaults
            self.configRefreshInterval = configRefreshInterval
            self.memoryBufferLimit = memoryBufferLimit
            self.journalLimitBytes = journalLimitBytes
            self.fileProtection = fileProtection
            self.device = device
            self.uploadStartDelay = uploadStartDelay
            self.requestTimeout = requestTimeout
            self.networkMonitor = networkMonitor
            self.transport = transport
            self.clock = clock
            self.wallClock = wallClock
            self.randomSeed = randomSeed
        }
    }

}

extension HermesClient.Configuration {
    /// `NWPathMonitor` on Apple platforms; elsewhere always reachable and unmetered.
    public static var defaultNetworkMonitor: any NetworkMonitor {
        #if canImport(Network)
        PathNetworkMonitor()
        #else
        StaticNetworkMonitor(.unmetered)
        #endif
    }

    /// The collector for namespaces without their own `url`.
    var defaultCollectorURL: URL? {
        if let collectorURL { return collectorURL }
        guard let configURL, var components = URLComponents(url: configURL, resolvingAgainstBaseURL: false) else { return nil }
        components.path = ""
        components.query = nil
        return components.url
    }
}

extension HermesClient {
    /// The host app's identity.
    public struct AppInfo: Sendable, Hashable {
        /// `APP_NAME`.
        public var name: String
        /// `APP_VERSION`; also names the configuration cache folder.
        public var version: String
        /// `APP_BUILD`.
        public var build: String

        /// Creates an app identity.
        public init(name: String, version: String, build: String) {
            self.name = name
            self.version = version
            self.build = build
        }
    }

    /// How uploads authenticate and are sealed.
    public struct Credentials: Sendable {
        /// Sent as `X-Hermes-App-Key`.
        public var appKey: String
        /// The packet version and cipher.
        public var wireFormat: WireFormat

        /// Creates credentials.
        public init(appKey: String, wireFormat: WireFormat) {
            self.appKey = appKey
            self.wireFormat = wireFormat
        }
    }
}
