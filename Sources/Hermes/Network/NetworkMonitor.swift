/// Tells Hermes the network status and when it changes. Injected so tests decide.
///
/// Contract for implementers: ``status`` is cheap and current; ``updates()`` yields every
/// change (it may also yield the current status first) until the monitor is gone.
public protocol NetworkMonitor: Sendable {
    /// The status now.
    var status: NetworkStatus { get }
    /// A stream of statuses as they change.
    func updates() -> AsyncStream<NetworkStatus>
}

/// A monitor that always reports one status: the default on Linux, where servers and
/// desktops are reachable and unmetered.
public struct StaticNetworkMonitor: NetworkMonitor {
    public let status: NetworkStatus

    /// Creates a monitor that always reports `status`.
    public init(_ status: NetworkStatus = .unmetered) {
        self.status = status
    }

    public func updates() -> AsyncStream<NetworkStatus> {
        AsyncStream { $0.finish() }
    }
}
