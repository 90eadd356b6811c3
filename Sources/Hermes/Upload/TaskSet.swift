import HermesWire
import Foundation

/// Background tasks an owner can cancel and await all at once, so nothing it started runs
/// after its `shutdown()` returns.
final class TaskSet: Sendable {
    private let tasks = Locked<[UUID: Task<Void, Never>]>([:])
    private let stopped = Locked(false)

    /// Starts `operation` unless the set was cancelled; the task leaves the set when done.
    func spawn(_ operation: @escaping @Sendable () async -> Void) {
        let id = UUID()
        tasks.withLock { tasks in
            guard !stopped.withLock({ $0 }) else { return }
            tasks[id] = Task {
                await operation()
                _ = self.tasks.withLock { $0.removeValue(forKey: id) }
            }
        }
    }

    /// Cancels every task, refuses new ones, and waits for all to end.
    func cancelAll() async {
        let running = tasks.withLock { tasks in
            stopped.withLock { $0 = true }
            return Array(tasks.values)
        }
        running.forEach { $0.cancel() }
        for task in running { await task.value }
    }
}
