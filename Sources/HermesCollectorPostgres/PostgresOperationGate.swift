import HermesCollector
import HermesWire

/// Counts a store's operations under way so that closing it waits for them: once closed, a new
/// operation fails at once (a client whose connections are gone would leave it waiting), and
/// the close returns when the last one under way has left.
final class PostgresOperationGate: Sendable {
    private struct State {
        var closed = false
        var inFlight = 0
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Lets an operation in.
    /// - Throws: ``CollectorError/Code/storageFailed`` once the store is closed.
    func enter(_ action: String) throws(CollectorError) {
        let open = state.withLock { state in
            if state.closed { return false }
            state.inFlight += 1
            return true
        }
        if !open { throw CollectorError(.storageFailed, "could not \(action): the store is closed") }
    }

    /// An operation let in has finished.
    func leave() {
        let waiting = state.withLock { state in
            state.inFlight -= 1
            guard state.closed, state.inFlight == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.drained = [] }
            return state.drained
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Refuses new operations and returns once those under way have finished.
    func close() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                state.closed = true
                if state.inFlight == 0 { return true }
                state.drained.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
