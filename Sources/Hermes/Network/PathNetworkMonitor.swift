#if canImport(Network)
import Network
import HermesWire

/// The Apple platforms' ``NetworkMonitor``: `NWPathMonitor`, with an expensive path (cellular,
/// personal hotspot) counted as metered. Only the mapping lives here; every decision it feeds
/// is made in portable code.
public final class PathNetworkMonitor: NetworkMonitor {
    private let monitor = NWPathMonitor()
    private let current = Locked(NetworkStatus.unmetered)
    private let continuations = Locked<[AsyncStream<NetworkStatus>.Continuation]>([])

    /// Starts monitoring on a private queue.
    public init() {
        monitor.pathUpdateHandler = { [weak self] path in
            guard let self else { return }
            let status: NetworkStatus = path.status != .satisfied ? .unreachable : (path.isExpensive ? .metered : .unmetered)
            self.current.withLock { $0 = status }
            self.continuations.withLock { $0.forEach { $0.yield(status) } }
        }
        monitor.start(queue: DispatchQueue(label: "hermes.network"))
    }

    deinit {
        monitor.cancel()
        continuations.withLock { $0.forEach { $0.finish() } }
    }

    public var status: NetworkStatus { current.withLock { $0 } }

    public func updates() -> AsyncStream<NetworkStatus> {
        let (stream, continuation) = AsyncStream<NetworkStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuations.withLock { $0.append(continuation) }
        return stream
    }
}
#endif
