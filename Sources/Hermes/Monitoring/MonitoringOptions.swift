public import Dispatch

/// Which kinds of monitoring a client collects by itself into the `hermes` namespace, as
/// ``HermesClient/Configuration/monitoring``. Each kind is also gated by the namespace's
/// `monitorList`, like any record: a type the server leaves out is not recorded.
///
/// ```swift
/// var configuration = HermesClient.Configuration(storageDirectory: dir, app: app, credentials: credentials)
/// configuration.monitoring.hangs = true
/// configuration.monitoring.watchedQueue = renderQueue   // Linux: a serial queue of the app's
/// ```
public struct MonitoringOptions: Sendable {
    /// Capture fatal signals (`appCrash`, reported at the next start). On by default, as in
    /// crash reporters; one handler per process, installed by the first client that starts.
    public var crashes: Bool
    /// Watch ``watchedQueue`` and record `appLag` for each stall longer than ``hangThreshold``.
    /// On by default on Apple platforms (the main queue); off on Linux, where the main queue
    /// runs only if the app drives it.
    public var hangs: Bool
    /// How long the watched queue may not answer before it counts as a hang.
    public var hangThreshold: Duration
    /// The queue the hang watchdog pings: the main queue unless set.
    public var watchedQueue: DispatchQueue
    /// Record `appBoot` when the app calls ``HermesClient/markLaunched()``.
    public var launch: Bool
    /// Record `net` / `netError` for requests made through ``InstrumentedSession``.
    public var network: Bool

    /// Creates the options; the defaults are those of the properties.
    public init(
        crashes: Bool = true,
        hangs: Bool = Self.hangsByDefault,
        hangThreshold: Duration = .seconds(2),
        watchedQueue: DispatchQueue = .main,
        launch: Bool = true,
        network: Bool = true
    ) {
        self.crashes = crashes
        self.hangs = hangs
        self.hangThreshold = hangThreshold
        self.watchedQueue = watchedQueue
        self.launch = launch
        self.network = network
    }

    /// Whether hangs are watched by default: on Apple platforms, where the main queue always runs.
    public static var hangsByDefault: Bool {
        #if canImport(Darwin)
        true
        #else
        false
        #endif
    }
}
