public import Hermes
import HermesWire

/// A ``NetworkMonitor`` a test drives: ``set(_:)`` changes the status and tells every listener.
public final class ManualNetworkMonitor: NetworkMonitor {
    private let current: Locked<NetworkStatus>
    private let continuations = Locked<[AsyncStream<NetworkStatus>.Continuation]>([])

    /// Creates a monitor reporting `status`.
    public init(_ status: NetworkStatus = .unmetered) {
        current = Locked(status)
    }

    public var status: NetworkStatus { current.withLock { $0 } }

    /// Changes the status and yields it to every stream from ``updates()``.
    public func set(_ status: NetworkStatus) {
        current.withLock { $0 = status }
        continuations.withLock { $0.forEach { $0.yield(status) } }
    }

    public func updates() -> AsyncStream<NetworkStatus> {
        let (stream, continuation) = AsyncStream<NetworkStatus>.makeStream()
        continuations.withLock { $0.append(continuation) }
        return stream
    }
}
