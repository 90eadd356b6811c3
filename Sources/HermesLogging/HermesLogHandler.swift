public import HermesWire
public import Logging

/// A swift-log `LogHandler` that persists log entries through a Hermes namespace, like
/// CocoaLumberjack's database logger: entries are buffered in memory and saved in groups, then
/// kept on the device for ``Controls/maxAge`` or uploaded with the namespace's records.
///
/// Each entry becomes one record of type `<level>` (`MONITOR_TYPE` `log-error` and so on) whose
/// meta holds `message`, `label`, `source`, `file`, `function`, `line`, `metadata` (an object)
/// and `timestamp` (ms since 1970 on the client's wall clock, when the entry was logged), and
/// `error` when the event carries one.
///
/// Levels: entries below ``LogPersister/Configuration/persistLevel`` (default `.info`) are not
/// stored; entries at or above ``LogPersister/Configuration/uploadLevel`` (default `.warning`)
/// go to namespace `log` and are uploaded; the others go to `log-local` and stay on the device.
/// ``logLevel`` works as in every handler: entries below it never reach the handler.
///
/// The handler is a cheap value; the buffer, timers and counters live in the ``LogPersister``
/// that all handlers of a client share. `log(event:)` never blocks and does no I/O.
///
/// ```swift
/// let client = try HermesClient(configuration: .init(
///     storageDirectory: dir, app: app, credentials: credentials,
///     namespaceDefaults: HermesLogHandler.namespaceDefaults()))
/// let persister = LogPersister(client: client)
/// LoggingSystem.bootstrap { label in HermesLogHandler(label: label, persister: persister) }
/// Logger(label: "app").warning("disk almost full", metadata: ["free_mb": "120"])
/// await client.shutdown()   // saves what is still buffered
/// ```
public struct HermesLogHandler: LogHandler {
    /// The logger's label, stored as `label`.
    public let label: String
    /// The shared buffer and timers.
    public let persister: LogPersister
    /// The lowest level that reaches the handler; defaults to the persister's `persistLevel`.
    public var logLevel: Logger.Level
    /// Metadata added to every entry of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Metadata added to every entry from the task's context.
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler writing through `persister`.
    /// - Parameters:
    ///   - label: the logger's label.
    ///   - persister: the client's persister, shared by all its handlers.
    ///   - logLevel: the lowest level passed on; `nil` uses the persister's `persistLevel`.
    ///   - metadataProvider: contextual metadata, as in every handler.
    public init(
        label: String, persister: LogPersister, logLevel: Logger.Level? = nil,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.persister = persister
        self.logLevel = logLevel ?? persister.configuration.persistLevel
        self.metadataProvider = metadataProvider
    }

    /// Buffers the entry with the handler's, the provider's and the call's metadata merged
    /// (the call's win); returns at once.
    public func log(event: LogEvent) {
        var event = event
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            if merged.isEmpty {
                merged = explicit
            } else {
                merged.merge(explicit) { _, explicit in explicit }
            }
        }
        event.metadata = merged
        persister.append(event, label: label)
    }

    /// The handler's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

extension HermesLogHandler {
    /// The namespace configurations to register in `HermesClient.Configuration.namespaceDefaults`
    /// (the server's configuration, when it has one, takes precedence): `namespace`, uploaded,
    /// and `"<namespace>-local"`, never uploaded. Both accept the seven swift-log level names
    /// (`trace` … `critical`), take meta up to 64 KB, keep up to 100,000 rows, survive app
    /// updates (`isUpdateClear` off) and expire after 30 days at the latest (below that,
    /// ``Controls/maxAge`` decides).
    ///
    /// ```swift
    /// var defaults = HermesLogHandler.namespaceDefaults()
    /// defaults["JZ"] = jz
    /// let configuration = HermesClient.Configuration(..., namespaceDefaults: defaults)
    /// ```
    /// - Parameter namespace: the uploaded namespace (default `log`).
    /// - Returns: the two configurations by namespace name.
    public static func namespaceDefaults(namespace: String = "log") -> [String: NamespaceConfiguration] {
        let uploaded = NamespaceConfiguration(
            isUpdateClear: false,
            expirationDay: 30,
            monitorList: Logger.Level.allCases.map { MonitorItem(type: $0.rawValue) },
            maxCacheCount: 100_000,
            maxMetaKByte: 64
        )
        var local = uploaded
        local.isUpload = false
        return [namespace: uploaded, localNamespace(for: namespace): local]
    }

    /// The namespace of entries that stay on the device: `"<namespace>-local"`.
    public static func localNamespace(for namespace: String) -> String {
        "\(namespace)-local"
    }
}
