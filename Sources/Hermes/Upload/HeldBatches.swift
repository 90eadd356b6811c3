/// The batches one table's sending in an upload round holds: those claimed and not yet
/// delivered (put back for a later round if the round ends) and those the collector
/// acknowledged whose rows are not yet deleted. The round's one cleanup empties both.
///
/// Owned by a single round's task; never shared.
final class HeldBatches {
    private var claimed: [ClaimedBatch] = []
    private var acknowledged: [ClaimedBatch] = []

    /// Holds a batch just claimed.
    func hold(_ batch: ClaimedBatch) {
        claimed.append(batch)
    }

    /// Moves a claimed batch to the acknowledged ones: the collector stored it.
    func acknowledge(_ batch: ClaimedBatch) {
        claimed.removeAll { $0.id == batch.id }
        acknowledged.append(batch)
    }

    /// The batch acknowledged last, whose rows the next claim deletes.
    var lastAcknowledged: ClaimedBatch? { acknowledged.last }

    /// Forgets the batch acknowledged last: its rows were deleted.
    func forgetLastAcknowledged() {
        acknowledged.removeLast()
    }

    /// The claimed batches, no longer held.
    func takeClaimed() -> [ClaimedBatch] {
        defer { claimed = [] }
        return claimed
    }

    /// The acknowledged batches, no longer held.
    func takeAcknowledged() -> [ClaimedBatch] {
        defer { acknowledged = [] }
        return acknowledged
    }
}
