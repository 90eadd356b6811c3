package import HermesWire

/// Which upload requests the fault proxy breaks, and how: two stretches of requests refused
/// with 401 and 404 (then served again), and a share of the others, each with one of the
/// random faults; counts what it injected.
package final class FaultPlan: Sendable {
    /// What the proxy does to a request instead of forwarding it faithfully.
    package enum Fault: String, CaseIterable, Sendable {
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
        /// Answers 401 without forwarding (a stretch of requests): the client pauses and keeps
        /// every record.
        case unauthorized = "401"
        /// Answers 404 without forwarding (a stretch of requests): the client pauses and keeps
        /// every record.
        case notFound = "404"

        /// The faults drawn at random; the others come in stretches.
        package static let random: [Fault] = [.serverError, .lostResponse, .reset, .timeout, .tooLarge, .throttled]
    }

    /// Upload requests (counted from 0) answered 401, then 404, whatever the draw.
    package static let stretches: [(fault: Fault, requests: Range<Int>)] = [(.unauthorized, 20..<35), (.notFound, 60..<75)]

    private struct State {
        var random: SplitMix64
        var requests = 0
        var injected: [Fault: Int] = [:]
    }

    /// The share of requests that get a random fault, in 0...1.
    package let rate: Double
    private let state: Locked<State>

    package init(rate: Double, seed: UInt64) {
        self.rate = rate
        state = Locked(State(random: SplitMix64(seed: seed)))
    }

    /// The fault for the next upload request, or `nil` to forward it faithfully.
    package func draw() -> Fault? {
        state.withLock { state in
            let request = state.requests
            state.requests += 1
            let fault: Fault
            if let stretch = Self.stretches.first(where: { $0.requests.contains(request) }) {
                fault = stretch.fault
            } else {
                guard Double(state.random.next() >> 11) * 0x1p-53 < rate else { return nil }
                fault = Fault.random[Int(state.random.next() % UInt64(Fault.random.count))]
            }
            state.injected[fault, default: 0] += 1
            return fault
        }
    }

    /// Faults injected so far, per kind.
    package var injected: [Fault: Int] { state.withLock { $0.injected } }
}
