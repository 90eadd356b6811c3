import Synchronization

/// What an edit closure saw, kept for after the edit: the store may run the closure on another
/// task, and again if its transaction is retried (the last run's value stands).
final class EditWitness<Value: Sendable>: Sendable {
    private let seen: Mutex<Value?> = Mutex(nil)

    /// The value the last run saw, or `nil` if the edit never ran.
    var value: Value? { seen.withLock { $0 } }

    /// Keeps what a run saw.
    func see(_ value: Value) { seen.withLock { $0 = value } }
}
