import HermesWire
import Synchronization

/// Which upload requests the fault proxy breaks, and how: a share of them, each with one of
/// the faults drawn at random; counts what it injected.
final class FaultPlan: Sendable {
    /// What the proxy does to a request instead of forwarding it faithfully.
    enum Fault: String, CaseIterable, Sendable {
        /// Answers 500 without forwarding.
        case serverError = "500"
        /// Forwards (the collector stores the batch), then answers 500: the client must resend
        /// and the collector drop the copies.
        case lostResponse = "500_after_store"
        /// Forwards, then drops the connection in the middle of the response body.
        case reset
        /// Holds the request past the client's timeout, then forwards it.
        case timeout
        /// Answers 413 without forwarding: the client halves its batches.
        case tooLarge = "413"
        /// Answers 429 with `Retry-After: 1` without forwarding.
        case throttled = "429"
    }

    private struct State {
        var random: SplitMix64
        var injected: [Fault: Int] = [:]
    }

    /// The share of requests that get a fault, in 0...1.
    let rate: Double
    private let state: Mutex<State>

    init(rate: Double, seed: UInt64) {
        self.rate = rate
        state = Mutex(State(random: SplitMix64(seed: seed)))
    }

    /// The fault for the next request, or `nil` to forward it faithfully.
    func draw() -> Fault? {
        state.withLock { state in
            guard Double(state.random.next() >> 11) * 0x1p-53 < rate else { return nil }
            let fault = Fault.allCases[Int(state.random.next() % UInt64(Fault.allCases.count))]
            state.injected[fault, default: 0] += 1
            return fault
        }
    }

    /// Faults injected so far, per kind.
    var injected: [Fault: Int] { state.withLock { $0.injected } }
}
