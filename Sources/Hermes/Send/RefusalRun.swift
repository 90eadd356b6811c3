import Atomics

/// A run of `send` calls refused because the journal and its memory buffer are full
/// (``HermesError/Code/bufferFull``): the client logs the first refusal of a run, and one line
/// with the count of the others once a record is accepted again (or at shutdown), instead of a
/// line per refused record while an app outruns the store.
///
/// An accepted `send` pays one relaxed atomic load when no run is open.
final class RefusalRun: Sendable {
    /// The refusals of the open run; 0 when none is open.
    private let refused = ManagedAtomic(0)

    /// Counts one refusal.
    /// - Returns: `true` for the first of a run: the one to log.
    func refuse() -> Bool {
        refused.wrappingIncrementThenLoad(ordering: .relaxed) == 1
    }

    /// Ends the open run, if any: a record was accepted, or the client shuts down.
    /// - Returns: the refusals of the run after its first (the ones not logged), or `nil` when
    ///   no run was open.
    func end() -> Int? {
        guard refused.load(ordering: .relaxed) > 0 else { return nil }
        let count = refused.exchange(0, ordering: .relaxed)
        return count > 0 ? count - 1 : nil
    }
}
