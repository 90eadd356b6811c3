import Dispatch
import Foundation
import GRDB
import Logging
import Synchronization

/// The store's single writer: `send` appends to its queue and returns; the writer commits
/// whatever has accumulated in one transaction (group commit), so throughput rises with load.
///
/// While the store cannot be opened or written (disk full, unwritable folder), records wait in
/// memory up to a bound and the writer retries with backoff; ``flush()`` retries at once.
package final class StoreWriter: @unchecked Sendable {
    // @unchecked: `store`, `failureStreak` and `storeIsCorrupt` are touched only on `queue`;
    // all other mutable state is inside the `state` mutex.
    private let queue = DispatchQueue(label: "hermes.store.writer")
    private var store: RecordStore?
    private var failureStreak = 0
    /// A write found the file corrupt: the next open moves it aside.
    private var storeIsCorrupt = false

    private let state: Mutex<State>
    private let directory: URL
    private let logger: Logger
    private let wallClock: @Sendable () -> Int64
    private let cacheLimit: @Sendable (String) -> Int?
    private let ledger: LossLedger

    /// Told after each group commit the row counts of the namespaces it wrote (for `flushCount`).
    let commitObserver = Locked<(@Sendable ([String: Int]) -> Void)?>(nil)

    package static let transactionSize = 2_000
    static let triesPerAttempt = 3

    private struct State {
        var pending = PendingQueue()
        /// Records taken by the writer and not yet committed.
        var writing = 0
        var enqueued: UInt64 = 0
        var committed: UInt64 = 0
        var draining = false
        var failing = false
        var closed = false
        var waiters: [(target: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var quarantinedFiles: [String] = []
        let bufferLimit: Int
    }

    /// - Parameters:
    ///   - directory: where the database file lives.
    ///   - bufferLimit: records held in memory while the store cannot be written.
    ///   - cacheLimit: each namespace's `maxCacheCount`, `nil` for an unconfigured namespace.
    init(directory: URL, bufferLimit: Int, logger: Logger, wallClock: @escaping @Sendable () -> Int64,
         cacheLimit: @escaping @Sendable (String) -> Int?, ledger: LossLedger) {
        self.directory = directory
        self.logger = logger
        self.wallClock = wallClock
        self.cacheLimit = cacheLimit
        self.ledger = ledger
        self.state = Mutex(State(bufferLimit: bufferLimit))
    }

    /// Records accepted but not yet committed.
    var backlog: Int { state.withLock { $0.pending.count + $0.writing } }

    /// Corrupt store files moved aside since the writer started.
    var quarantinedFiles: [String] { state.withLock { $0.quarantinedFiles } }

    /// Queues a record; never blocks on disk.
    /// - Returns: `nil` when queued, or why not (`shutDown`, `bufferFull`).
    func enqueue(_ record: PendingRecord) -> HermesError? {
        let outcome: Result<Bool, HermesError> = state.withLock { state in
            guard !state.closed else { return .failure(HermesError(.shutDown, "the client was shut down")) }
            if state.failing, state.pending.count + state.writing >= state.bufferLimit {
                return .failure(HermesError(.bufferFull, "the store cannot be written and \(state.bufferLimit) records already wait in memory"))
            }
            state.pending.append(record)
            state.enqueued += 1
            guard !state.draining, !state.failing else { return .success(false) }
            state.draining = true
            return .success(true)
        }
        switch outcome {
        case .failure(let error): return error
        case .success(let schedule):
            if schedule { queue.async { self.drain() } }
            return nil
        }
    }

    /// Returns once every record queued before the call is committed.
    /// - Throws: ``HermesError/Code/storeUnavailable`` when the store cannot be written now;
    ///   the records stay queued and are retried.
    func flush() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let schedule: Bool? = state.withLock { state in
                guard state.committed < state.enqueued else { return nil }
                state.waiters.append((state.enqueued, continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            switch schedule {
            case nil: continuation.resume()
            case true?: queue.async { self.drain() }
            case false?: break
            }
        }
    }

    /// Runs `work` on the writer's queue, after the records queued before it were attempted.
    /// - Throws: ``HermesError/Code/shutDown`` once the writer is closed, or what `work` throws.
    func perform<T: Sendable>(_ work: @escaping @Sendable (RecordStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    guard !self.state.withLock({ $0.closed }) else { throw HermesError(.shutDown, "the client was shut down") }
                    return try self.closingIfCorrupt { try work(self.openedStore()) }
                })
            }
        }
    }

    /// Commits what is queued, refuses new records, and closes the database. Records the
    /// store could not take are counted as ``LossReason/unsaved``; `flush()` calls still
    /// waiting are answered.
    /// - Returns: how many accepted records could not be stored.
    func close() async -> Int {
        try? await flush()
        return await withCheckedContinuation { continuation in
            queue.async {
                // From here on nothing is accepted; on the queue no batch is being written, so
                // what is left is what arrived since the flush, or what the store refused.
                let rest = self.state.withLock { state in
                    state.closed = true
                    return state.pending.takeFront(upTo: .max)
                }
                var unsaved: [String: Int] = [:]
                let records = rest.flatMap { $0.records() }
                if !records.isEmpty {
                    do {
                        try self.commit(records)
                    } catch {
                        unsaved = records.reduce(into: [:]) { $0[$1.namespace, default: 0] += 1 }
                    }
                }
                let count = records.count
                let waiters = self.state.withLock { state in
                    if unsaved.isEmpty { state.committed += UInt64(count) }
                    defer { state.waiters.removeAll() }
                    return state.waiters.map { (done: $0.target <= state.committed, continuation: $0.continuation) }
                }
                for (namespace, count) in unsaved { self.ledger.record(count, namespace: namespace, reason: .unsaved) }
                self.store?.close()
                self.store = nil
                for waiter in waiters {
                    if waiter.done { waiter.continuation.resume() } else {
                        waiter.continuation.resume(throwing: HermesError(.shutDown, "the client shut down before these records could be stored"))
                    }
                }
                continuation.resume(returning: unsaved.values.reduce(0, +))
            }
        }
    }

    // MARK: - On the queue

    private func openedStore() throws -> RecordStore {
        if let store { return store }
        let (opened, quarantine) = try RecordStore.open(in: directory, now: wallClock(), knownCorrupt: storeIsCorrupt, logger: logger)
        storeIsCorrupt = false
        if let quarantine {
            state.withLock { $0.quarantinedFiles.append(quarantine.path) }
            for (namespace, rows) in quarantine.rows ?? [:] { ledger.record(rows, namespace: namespace, reason: .quarantined) }
        }
        store = opened
        return opened
    }

    private func drain() {
        while true {
            let batch: [RecordArena] = state.withLock { state in
                if state.pending.isEmpty || state.closed { state.draining = false }
                guard state.draining else { return [] }
                let batch = state.pending.takeFront(upTo: Self.transactionSize)
                state.writing = batch.reduce(0) { $0 + $1.count }
                return batch
            }
            if batch.isEmpty { return }
            let records = batch.flatMap { $0.records() }
            let count = records.count
            do {
                try commit(records)
            } catch {
                state.withLock { state in
                    state.pending.putBack(batch)
                    state.writing = 0
                }
                fail(count, error)
                return
            }
            let (ready, sparesWanted): ([CheckedContinuation<Void, any Error>], Int) = state.withLock { state in
                state.writing = 0
                let sparesWanted = state.pending.recycle(batch)
                state.committed += UInt64(count)
                state.failing = false
                let committed = state.committed
                let ready = state.waiters.filter { $0.target <= committed }.map(\.continuation)
                state.waiters.removeAll { $0.target <= committed }
                return (ready, sparesWanted)
            }
            if failureStreak > 0 {
                logger.notice("hermes: the store is writable again", metadata: ["records": "\(count)"])
                failureStreak = 0
            }
            ready.forEach { $0.resume() }
            // Spare arenas are made (their pages touched) here, not by `send`.
            if sparesWanted > 0 {
                let made = (0..<sparesWanted).map { _ in RecordArena(capacity: PendingQueue.arenaCapacity) }
                state.withLock { $0.pending.addSpares(made) }
            }
        }
    }

    /// Inserts a batch (three tries) and evicts past each namespace's cap. Idempotent: a batch
    /// retried after a failure inserts only what is missing.
    private func commit(_ batch: [PendingRecord]) throws {
        let store = try openedStore()
        var lastError: (any Error)?
        for _ in 0..<Self.triesPerAttempt {
            do {
                try closingIfCorrupt { try store.insert(batch) }
                lastError = nil
                break
            } catch let error as DatabaseError where RecordStore.isCorruption(error) {
                throw error
            } catch {
                lastError = error
            }
        }
        if let lastError { throw lastError }
        var written: [String: Int] = [:]
        for namespace in Set(batch.map(\.namespace)) {
            if let limit = cacheLimit(namespace) {
                let evicted = try store.evict(namespace: namespace, limit: limit)
                ledger.record(evicted, namespace: namespace, reason: .evicted)
            }
            written[namespace] = store.rowCount(namespace)
        }
        commitObserver.withLock { $0 }?(written)
    }

    /// Runs `body`; if SQLite finds the file corrupt, closes the store so that the next open
    /// moves the file aside, and rethrows.
    private func closingIfCorrupt<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where RecordStore.isCorruption(error) {
            store?.close()
            store = nil
            storeIsCorrupt = true
            throw error
        }
    }

    private func fail(_ count: Int, _ error: any Error) {
        failureStreak += 1
        if failureStreak == 1 {
            logger.error("hermes: cannot write the store; records wait in memory and will be retried", metadata: ["error": "\(error)"])
        }
        let waiters = state.withLock { state in
            state.failing = true
            state.draining = false
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        let failure = HermesError(.storeUnavailable, "the store cannot be written now (\(error)); \(count)+ records wait in memory and will be retried")
        waiters.forEach { $0.resume(throwing: failure) }
        let delay = min(30.0, 0.5 * Double(1 << min(failureStreak - 1, 6)))
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.retry() }
    }

    private func retry() {
        let start = state.withLock { state in
            guard state.failing, !state.draining, !state.pending.isEmpty, !state.closed else { return false }
            state.draining = true
            return true
        }
        if start { drain() }
    }
}
