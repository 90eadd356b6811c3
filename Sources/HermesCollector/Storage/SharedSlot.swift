import HermesWire

/// A value one task leaves for another, under a lock: what an edit closure saw, kept for after
/// the edit (the store may run the closure on another task, and again if its transaction is
/// retried: the last value stands), or a value made once and reused.
final class SharedSlot<Value: Sendable>: Sendable {
    private let slot: Locked<Value?> = Locked(nil)

    /// The value left last, or `nil` if none was.
    var value: Value? { slot.withLock { $0 } }

    /// Leaves a value, replacing the one before.
    func set(_ value: Value) { slot.withLock { $0 = value } }
}
