/// The rules for one namespace, as the server sends them (specification §3).
///
/// Property names are the wire's JSON keys. Sizes are in megabytes (`MByte`, 1 MB = 1,048,576
/// bytes) or kilobytes (`KByte`, 1,024 bytes) and may be fractional. Values out of range are
/// brought into range by ``clamped(namespace:)``, which says what it changed.
///
/// ```swift
/// var jz = NamespaceConfiguration.hermesDefault
/// jz.monitorList = [MonitorItem(type: "pay", isRealtime: true)]
/// ```
public struct NamespaceConfiguration: Sendable, Hashable {
    /// The collector's base URL for this namespace; `nil` means the client's own collector
    /// (the built-in default: an app names its collector once, not per namespace).
    public var url: String?
    /// Upload stored records.
    public var isUpload: Bool
    /// Accept new records; when off, `send` rejects at once.
    public var isGather: Bool
    /// Delete stored records of other app versions at start.
    public var isUpdateClear: Bool
    /// The largest upload body, and the largest payload accepted, in MB. Range (0, 3].
    public var maxBodyMByte: Double
    /// Seconds between periodic uploads. Range 1...30.
    public var periodicTimerSecond: Double
    /// The most records in one upload. Range 1...100.
    public var maxItem: Int
    /// Cellular bytes allowed per 24 hours, in MB. Range (0, 100].
    public var maxFlowMByte: Double
    /// Days a stored record is kept before it is deleted unsent. Range 1...30.
    public var expirationDay: Double
    /// The record types this namespace accepts.
    public var monitorList: [MonitorItem]
    /// Records kept in the store before the oldest 100 are evicted. Range 100...1,000,000.
    public var maxCacheCount: Int
    /// Pending records that trigger an upload. Range 1...10,000.
    public var flushCount: Int
    /// The largest encoded meta accepted, in KB. Range (0, 64].
    public var maxMetaKByte: Double

    /// Parts that apply to some devices only (app versions, device ids, a share of devices);
    /// the collector lays them over for each device, so a client never holds any.
    public var overrides: [ConfigurationOverride] = []

    /// Creates a namespace configuration; every value defaults to the built-in default's.
    public init(
        url: String? = nil,
        isUpload: Bool = true,
        isGather: Bool = true,
        isUpdateClear: Bool = true,
        maxBodyMByte: Double = 1,
        periodicTimerSecond: Double = 5,
        maxItem: Int = 100,
        maxFlowMByte: Double = 20,
        expirationDay: Double = 15,
        monitorList: [MonitorItem] = [],
        maxCacheCount: Int = 10_000,
        flushCount: Int = 100,
        maxMetaKByte: Double = 10
    ) {
        self.url = url
        self.isUpload = isUpload
        self.isGather = isGather
        self.isUpdateClear = isUpdateClear
        self.maxBodyMByte = maxBodyMByte
        self.periodicTimerSecond = periodicTimerSecond
        self.maxItem = maxItem
        self.maxFlowMByte = maxFlowMByte
        self.expirationDay = expirationDay
        self.monitorList = monitorList
        self.maxCacheCount = maxCacheCount
        self.flushCount = flushCount
        self.maxMetaKByte = maxMetaKByte
    }

    /// The built-in configuration of the `hermes` monitoring namespace, used until a server or
    /// cached configuration exists: `appCrash` realtime with payload; `appLag`, `appBoot`,
    /// `net`, `netError`, `sdkHealth` neither realtime nor with payload; none Wi-Fi only.
    public static let hermesDefault = NamespaceConfiguration(monitorList: [
        MonitorItem(type: MonitorType.appCrash, isRealtime: true, isUploadPayload: true),
        MonitorItem(type: MonitorType.appAbnormalExit),
        MonitorItem(type: MonitorType.appLag),
        MonitorItem(type: MonitorType.appBoot),
        MonitorItem(type: MonitorType.net),
        MonitorItem(type: MonitorType.netError),
        MonitorItem(type: MonitorType.sdkHealth),
    ])

    /// The entry for `type` in ``monitorList``, or `nil` when the namespace does not accept it.
    public func monitorItem(for type: String) -> MonitorItem? {
        monitorList.first { $0.type == type }
    }

    /// ``maxBodyMByte`` in bytes.
    public var maxBodyBytes: Int { Int(maxBodyMByte * 1_048_576) }
    /// ``maxFlowMByte`` in bytes.
    public var maxFlowBytes: Int { Int(maxFlowMByte * 1_048_576) }
    /// ``maxMetaKByte`` in bytes.
    public var maxMetaBytes: Int { Int(maxMetaKByte * 1_024) }
}
