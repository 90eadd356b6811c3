/// Whether the device can reach the network, and whether that network is metered.
public enum NetworkStatus: Sendable, Hashable {
    /// No route to the collector: uploads wait.
    case unreachable
    /// Wi-Fi or wired: uploads go without a quota.
    case unmetered
    /// Cellular or another expensive path: uploads count against `maxFlowMByte`, and
    /// `onlyWifi` types wait.
    case metered

    /// Whether uploads can be attempted at all.
    public var isReachable: Bool { self != .unreachable }
}
