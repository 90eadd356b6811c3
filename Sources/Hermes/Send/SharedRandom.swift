import Atomics
import HermesWire

/// The sampling draws of `send`, shared by every caller without a lock: a ``SplitMix64`` whose
/// state advances with one atomic add, each caller mixing its own step (the same sequence as one
/// generator called in turn).
final class SharedRandom: Sendable {
    private let state: ManagedAtomic<UInt64>

    init(seed: UInt64) {
        state = ManagedAtomic(seed)
    }

    /// The next draw, uniform in `0..<1`.
    func nextUnit() -> Double {
        var generator = SplitMix64(seed: state.loadThenWrappingIncrement(by: SplitMix64.increment, ordering: .relaxed))
        return Double(generator.next() >> 11) * 0x1p-53
    }
}
