/// The rows a namespace puts in one batch: `maxItem` until the collector answers 413, then
/// halved on each 413, and doubled back after ``recoveryStreak`` batches in a row were
/// delivered, so that a transient 413 does not leave the namespace sending one row at a time.
struct BatchSize: Sendable, Equatable {
    /// Batches delivered in a row, at a reduced size, before the size doubles.
    static let recoveryStreak = 10

    /// The reduced size, or `nil` for the namespace's `maxItem`.
    private var reduced: Int?
    private var delivered = 0

    /// The rows for the next batch, at most `maxItem`.
    func rows(maxItem: Int) -> Int {
        min(reduced ?? maxItem, maxItem)
    }

    /// A batch of `rows` was too large (413).
    /// - Returns: `false` when it cannot shrink (one row).
    mutating func refused(rows: Int) -> Bool {
        guard rows > 1 else { return false }
        reduced = rows / 2
        delivered = 0
        return true
    }

    /// A batch was delivered under a namespace whose `maxItem` is `maxItem`.
    mutating func wasDelivered(maxItem: Int) {
        guard let size = reduced else { return }
        delivered += 1
        guard delivered >= Self.recoveryStreak else { return }
        delivered = 0
        reduced = size * 2 >= maxItem ? nil : size * 2
    }
}
