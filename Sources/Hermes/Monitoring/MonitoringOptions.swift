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
    /// Sample the process's memory and CPU every ``resourceInterval`` and record `appMemory`
    /// and `appCPU` (with the thermal and power state the platform tells), when the
    /// namespace's `monitorList` has them (the built-in default does not: the server turns
    /// them on). On by default: the samples also feed ``abnormalExits``.
    public var resources: Bool
    /// How often resources are sampled (at least a second).
    public var resourceInterval: Duration
    /// Keep a marker of the run in the storage folder and, at the next start, record
    /// `appAbnormalExit` for a run that ended without a clean shutdown and without a crash
    /// report (killed for memory, by a watchdog, or by the user on a hang).
    public var abnormalExits: Bool
    /// Where samples are read (tests point it at files of their own).
    var resourceReader = ResourceReader()

    /// Creates the options; the defaults are those of the properties.
    public init(
        crashes: Bool = true,
        hangs: Bool = Self.hangsByDefault,
        hangThreshold: Duration = .seconds(2),
        watchedQueue: DispatchQueue = .main,
        launch: Bool = true,
        network: Bool = true,
        resources: Bool = true,
        resourceInterval: Duration = .seconds(60),
        abnormalExits: Bool = true
    ) {
        self.resources = resources
        self.resourceInterval = resourceInterval
        self.abnormalExits = abnormalExits
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
