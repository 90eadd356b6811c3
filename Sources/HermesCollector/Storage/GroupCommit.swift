/// Gathers concurrent writes into groups that commit together: while one group commits, the
/// writes that arrive wait, and the next group takes them all (oldest first, up to
/// `maximumWeight`) in one call to `commit`. Each caller gets its own item's result, and only
/// once the call that committed its group has returned.
///
/// It has no task of its own: the caller whose item opens a group commits it (the leader); once
/// done, it answers the others of the group and hands the lead to the oldest caller still waiting.
///
/// ```swift
/// let commits = GroupCommit<IngestBatch, StoreOutcome>(maximumWeight: 5_000, weight: { $0.records.count }) { batches in
///     await store(batches) // one result per batch, in order
/// }
/// let outcome = try await commits.submit(batch)
/// ```
actor GroupCommit<Item: Sendable, Outcome: Sendable> {
    /// Commits a group: one result per item, in the order of the items.
    typealias Commit = @Sendable (_ items: [Item]) async -> [Result<Outcome, any Error>]

    /// What a waiting caller is woken with.
    private enum Turn: Sendable {
        /// Its item's group committed: the item's result.
        case done(Result<Outcome, any Error>)
        /// The group before it committed: it leads the next one.
        case lead
    }

    private struct Waiter {
        var item: Item
        var continuation: CheckedContinuation<Turn, Never>
    }

    private let maximumWeight: Int
    private let weight: @Sendable (Item) -> Int
    private let commit: Commit
    private var waiters: [Waiter] = []
    private var waiterStart = 0
    private var isCommitting = false

    /// Creates a queue.
    /// - Parameters:
    ///   - maximumWeight: the most weight one group takes; a group always takes its leader's item.
    ///   - weight: an item's weight (a batch's record count).
    ///   - commit: commits a group, returning one result per item in order.
    init(maximumWeight: Int, weight: @escaping @Sendable (Item) -> Int, commit: @escaping Commit) {
        self.maximumWeight = maximumWeight
        self.weight = weight
        self.commit = commit
    }

    /// The callers waiting for a group to take their item.
    var waiting: Int { waiters.count - waiterStart }

    /// Commits `item` with whatever else is waiting, and returns its result once committed.
    /// - Throws: what `commit` answered for this item.
    func submit(_ item: Item) async throws -> Outcome {
        if isCommitting {
            let turn = await withCheckedContinuation { continuation in
                waiters.append(Waiter(item: item, continuation: continuation))
            }
            switch turn {
            case .done(let result): return try result.get()
            case .lead: break
            }
        }
        isCommitting = true
        let followers = takeGroup(after: weight(item))
        let items = [item] + followers.map(\.item)
        // The group is not the leader's alone: its commit runs in a task of its own, which the
        // leader's cancellation (its client hanging up) does not cancel.
        var results = await Task { [commit] in await commit(items) }.value
        if results.count != followers.count + 1 {
            let broken = CollectorError(.storageFailed, "the store answered \(results.count) results for a group of \(followers.count + 1)")
            results = Array(repeating: .failure(broken), count: followers.count + 1)
        }
        for (follower, result) in zip(followers, results.dropFirst()) {
            follower.continuation.resume(returning: .done(result))
        }
        if let next = takeWaiter() {
            next.continuation.resume(returning: .lead)
        } else {
            isCommitting = false
        }
        return try results[0].get()
    }

    /// The oldest waiters whose weights fit beside a leader of weight `used`.
    private func takeGroup(after used: Int) -> [Waiter] {
        var total = used
        var group: [Waiter] = []
        while waiterStart < waiters.count, total + weight(waiters[waiterStart].item) <= maximumWeight, let waiter = takeWaiter() {
            total += weight(waiter.item)
            group.append(waiter)
        }
        return group
    }

    private func takeWaiter() -> Waiter? {
        guard waiterStart < waiters.count else { return nil }
        let waiter = waiters[waiterStart]
        waiterStart += 1
        if waiterStart == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            waiterStart = 0
        }
        return waiter
    }
}
