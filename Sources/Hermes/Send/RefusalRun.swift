import Atomics
import HermesWire

/// A run of `send` calls refused because the journal and its memory buffer are full
/// (``HermesError/Code/bufferFull``): the client logs the first refusal of a run, and one line
/// with the count of the others once a record is accepted again (or at shutdown), instead of a
/// line per refused record while an app outruns the store.
///
/// An accepted `send` pays one relaxed atomic load when no run is open.
final class RefusalRun: Sendable {
    private let refused = Locked(0)
    private let isOpen = ManagedAtomic(false)

    /// Counts one refusal.
    /// - Returns: `true` for the first of a run: the one to log.
    func refuse() -> Bool {
        refused.withLock { count in
            count += 1
            if count == 1 { isOpen.store(true, ordering: .releasing) }
            return count == 1
        }
    }

    /// Ends the open run, if any: a record was accepted, or the client shuts down.
    /// - Returns: the refusals of the run after its first (the ones not logged), or `nil` when
    ///   no run was open.
    func end() -> Int? {
        guard isOpen.load(ordering: .acquiring) else { return nil }
        return refused.withLock { count in
            guard count > 0 else { return nil }
            defer { count = 0 }
            isOpen.store(false, ordering: .releasing)
            return count - 1
        }
    }
}
