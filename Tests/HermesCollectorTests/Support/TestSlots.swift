import HermesWire

/// A counting semaphore for tests: at most `count` holders at once, the others wait in turn.
final class TestSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    init(_ count: Int) {
        state = Locked(State(free: count))
    }

    /// Waits for a free slot and takes it.
    func acquire() async {
        await withCheckedContinuation { continuation in
            let taken = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if taken { continuation.resume() }
        }
    }

    /// Gives a slot back, to the first waiting if any.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
