import HermesWire

/// How many connections the collector holds, in all and per remote address, and whether it may
/// take one more. Shared by every connection's ``ConnectionGuard``.
final class ConnectionLimiter: Sendable {
    /// The most connections held at once.
    let maximum: Int
    /// The most held at once from one address; 0 for no such limit (behind a proxy every
    /// connection comes from the proxy's address).
    let maximumPerAddress: Int
    private let held = Locked<(total: Int, byAddress: [String: Int])>((0, [:]))

    init(maximum: Int, maximumPerAddress: Int) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress
    }

    /// Counts a new connection from `address` if both limits allow it.
    /// - Returns: whether it may be served; a connection refused here is closed at once.
    func admit(_ address: String) -> Bool {
        held.withLock { held in
            let fromAddress = held.byAddress[address, default: 0]
            guard held.total < maximum, maximumPerAddress == 0 || fromAddress < maximumPerAddress else { return false }
            held.total += 1
            held.byAddress[address] = fromAddress + 1
            return true
        }
    }

    /// Forgets an admitted connection that closed.
    func release(_ address: String) {
        held.withLock { held in
            held.total -= 1
            let left = held.byAddress[address, default: 1] - 1
            held.byAddress[address] = left > 0 ? left : nil
        }
    }
}

extension ConnectionLimiter {
    /// Descriptors kept for everything but client connections: the store, logs, the listener.
    static let reservedDescriptors = 256

    /// `wanted`, or fewer when the process may not open that many files with
    /// ``reservedDescriptors`` left over: a flood of connections then meets the limit before
    /// the process runs out of descriptors.
    static func openFileCeiling(below wanted: Int) -> Int {
        guard let limit = OpenFileLimit.current else { return wanted }
        return max(1, min(wanted, limit - reservedDescriptors))
    }
}
