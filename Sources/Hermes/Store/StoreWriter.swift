import Dispatch
import Foundation
import GRDB
import HermesWire
import Logging

/// The store's single writer: `send` appends to the crash-proof ``Journal`` and returns; the
/// writer reads what accumulated and commits it in one transaction (group commit), with the
/// journal cursors that say so, so throughput rises with load and a crash loses nothing.
///
/// While the store cannot be opened or written (disk full, unwritable folder), records wait in
/// the journal and the writer retries with backoff; ``flush()`` retries at once.
package final class StoreWriter: @unchecked Sendable {
    // @unchecked: `store`, `failureStreak`, `storeIsCorrupt` and `retiredSegments` are touched
    // only on `queue`; all other mutable state is inside the `state` mutex or the journal.
    private let queue = DispatchQueue(label: "hermes.store.writer")
    private var store: RecordStore?
    private var failureStreak = 0
    /// A write found the file corrupt: the next open moves it aside.
    private var storeIsCorrupt = false
    /// Journal segments deleted whose saved cursors the next commit drops.
    private var retiredSegments: [Int64] = []

    let journal: Journal
    private let state = Locked(State())
    private let directory: URL
    private let logger: Logger
    private let wallClock: @Sendable () -> Int64
    private let configurationService: ConfigurationService
    private let ledger: LossLedger

    /// Told after each group commit the row counts of the namespaces it wrote (for `flushCount`).
    let commitObserver = Locked<(@Sendable ([String: Int]) -> Void)?>(nil)

    package static let transactionSize = 500
    static let triesPerAttempt = 3
    /// The namespace torn journal frames are counted under: a torn frame's own cannot be trusted.
    static let tornNamespace = "*"

    private struct State {
        var committed: UInt64 = 0
        var closed = false
        var waiters: [Waiter] = []
        var quarantinedFiles: [String] = []
        /// Whether `drain()` is reading the journal on the queue right now.
        var draining = false
        /// Work that must not wait for a backlog: run by `drain()` between two transactions.
        var prompt: [PromptJob] = []
    }

    /// Work for ``performPromptly(afterRecovery:_:)``.
    private struct PromptJob {
        /// Whether it waits until what an earlier run left in the journal is in the store.
        var afterRecovery: Bool
        var run: @Sendable () -> Void
    }

    /// A `flush()` waiting for the first `target` records, and for the recovery of what an
    /// earlier run left when it began during it.
    private struct Waiter {
        var target: UInt64
        var awaitsRecovery: Bool
        var continuation: CheckedContinuation<Void, any Error>

        func isSatisfied(committed: UInt64, recovering: Bool) -> Bool {
            target <= committed && !(awaitsRecovery && recovering)
        }
    }

    /// - Parameters:
    ///   - directory: where the database file and the journal live.
    ///   - journal: sizes and limits of the journal and its memory buffer.
    ///   - configurationService: asked for each namespace's `maxCacheCount` (none for an unconfigured namespace).
    init(
        directory: URL, journal options: Journal.Options, fileProtection: FileProtection, logger: Logger,
        wallClock: @escaping @Sendable () -> Int64, configurationService: ConfigurationService, ledger: LossLedger
    ) {
        self.directory = directory
        self.logger = logger
        self.wallClock = wallClock
        self.configurationService = configurationService
        self.ledger = ledger
        fileProtection.apply(toStorage: directory)
        journal = Journal(storageDirectory: directory, options: options, fileProtection: fileProtection, logger: logger)
    }

    /// Records accepted but held only in memory (the journal could not take them).
    var backlog: Int { journal.bufferedRecords }

    /// Corrupt store files moved aside since the writer started.
    var quarantinedFiles: [String] { state.withLock { $0.quarantinedFiles } }

    /// Makes a record safe in the journal; never blocks on disk.
    /// - Returns: `nil` when accepted, or why not (`shutDown`, `bufferFull`).
    func enqueue(_ record: PendingRecord) -> HermesError? {
        switch journal.append(record) {
        case .rejected(let error):
            return error
        case .accepted(let wake):
            if wake { queue.async { self.drain() } }
            return nil
        }
    }

    /// Starts reading what an earlier run left in the journal into the store.
    func recover() {
        if journal.isRecovering, journal.claimReader() { queue.async { self.drain() } }
    }

    /// Returns once every record queued before the call is committed, and what an earlier run
    /// left in the journal too.
    /// - Throws: ``HermesError/Code/storeUnavailable`` when the store cannot be written now;
    ///   the records stay in the journal and are retried.
    func flush() async throws {
        let target = journal.enqueued
        let recovering = journal.isRecovering
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let waiter = Waiter(target: target, awaitsRecovery: recovering, continuation: continuation)
            let done = state.withLock { state in
                guard !waiter.isSatisfied(committed: state.committed, recovering: recovering) else { return true }
                state.waiters.append(waiter)
                return false
            }
            if done {
                continuation.resume()
            } else if journal.claimReader(force: true) {
                queue.async { self.drain() }
            }
        }
    }

    /// Runs `work` on the writer's queue, after the records queued before it were attempted.
    /// - Throws: ``HermesError/Code/shutDown`` once the writer is closed, or what `work` throws.
    func perform<T: Sendable>(_ work: @escaping @Sendable (RecordStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result {
                        guard !self.state.withLock({ $0.closed }) else { throw HermesError(.shutDown, "the client was shut down") }
                        return try self.closingIfCorrupt { try work(self.openedStore()) }
                    })
            }
        }
    }

    /// Deletes every stored row, counted under `reason`, after committing what was accepted
    /// before the call, and deletes the journal segments whose records are all committed, so
    /// no accepted record stays on disk. Runs on the writer's queue, between its transactions.
    /// - Returns: the rows deleted, per namespace.
    /// - Throws: ``HermesError/Code/storeUnavailable`` when the store cannot be written now.
    func erase(reason: LossReason) async throws -> [String: Int] {
        try await flush()
        return try await perform { store in
            let erased = try store.eraseAll()
            for (namespace, rows) in erased { self.ledger.record(rows, namespace: namespace, reason: reason) }
            self.retiredSegments += self.journal.retireConsumed()
            return erased
        }
    }

    /// Runs `work` on the writer's queue soon: between two of the writer's transactions when it
    /// is working through a backlog, instead of after it (an upload claiming its next batch
    /// does not wait for a burst to be stored).
    /// - Parameter afterRecovery: wait, while working through a backlog, until the records an
    ///   earlier run left in the journal are in the store (start-up housekeeping judges them
    ///   too), but not for the records sent since.
    /// - Throws: ``HermesError/Code/shutDown`` once the writer is closed, or what `work` throws.
    func performPromptly<T: Sendable>(
        afterRecovery: Bool = false, _ work: @escaping @Sendable (RecordStore) throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable () -> Void = {
                continuation.resume(
                    with: Result {
                        guard !self.state.withLock({ $0.closed }) else { throw HermesError(.shutDown, "the client was shut down") }
                        return try self.closingIfCorrupt { try work(self.openedStore()) }
                    })
            }
            // Work that waits for recovery joins the prompt work even when no drain runs yet: the
            // drain that reads the earlier run's records (started by `recover()`, or here) runs it.
            let waitsForRecovery = afterRecovery && journal.isRecovering
            let (queued, draining) = state.withLock { state in
                guard state.draining || waitsForRecovery else { return (false, state.draining) }
                state.prompt.append(PromptJob(afterRecovery: afterRecovery, run: job))
                return (true, state.draining)
            }
            if !queued {
                queue.async(execute: job)
            } else if !draining, journal.claimReader(force: true) {
                queue.async { self.drain() }
            }
        }
    }

    /// Runs the prompt work that arrived while draining (on the queue); work that waits for
    /// recovery stays queued while it lasts, unless draining stops.
    private func runPromptWork(stopDraining: Bool = false) {
        let recovering = !stopDraining && journal.isRecovering
        let isReady = { (job: PromptJob) in !(job.afterRecovery && recovering) }
        let jobs = state.withLock { state in
            if stopDraining { state.draining = false }
            defer { state.prompt.removeAll(where: isReady) }
            return state.prompt.filter(isReady)
        }
        jobs.forEach { $0.run() }
    }

    /// Commits what is queued, refuses new records, and closes the database. Records still in
    /// the journal stay there for the next start; records the store could not take from the
    /// memory buffer are counted as ``LossReason/unsaved``; `flush()` calls still waiting are answered.
    /// - Returns: how many accepted records could not be kept.
    func close() async -> Int {
        try? await flush()
        return await withCheckedContinuation { continuation in
            queue.async {
                // From here on nothing is accepted; what arrived since the flush is read now.
                self.journal.close()
                self.state.withLock { $0.closed = true }
                self.drain()
                let unsaved = self.journal.finish().reduce(into: [String: Int]()) { $0[$1.namespace, default: 0] += 1 }
                for (namespace, count) in unsaved { self.ledger.record(count, namespace: namespace, reason: .unsaved) }
                self.store?.close()
                self.store = nil
                let (committed, waiters) = self.state.withLock { state in
                    defer { state.waiters.removeAll() }
                    return (state.committed, state.waiters)
                }
                let recovering = self.journal.isRecovering
                for waiter in waiters {
                    if waiter.isSatisfied(committed: committed, recovering: recovering) {
                        waiter.continuation.resume()
                    } else {
                        waiter.continuation.resume(
                            throwing: HermesError(.shutDown, "the client shut down before these records could be stored; they stay in the journal"))
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
        retiredSegments += journal.adopt(savedCursors: try opened.journalCursors())
        store = opened
        return opened
    }

    /// Reads the journal into the store until it has nothing more, or the store fails; prompt
    /// work runs between its transactions.
    private func drain() {
        state.withLock { $0.draining = true }
        defer { runPromptWork(stopDraining: true) }
        // Opening the store first takes up its saved journal cursors before anything is read.
        do {
            _ = try openedStore()
        } catch {
            fail(0, error)
            return
        }
        var waits = 0
        while true {
            let batch: JournalBatch
            switch journal.take(limit: Self.transactionSize) {
            case .idle:
                return
            case .wait:
                // A caller is copying its record in: a matter of microseconds unless it was preempted.
                waits += 1
                usleep(waits < 20 ? 20 : 1_000)
                continue
            case .batch(let taken):
                batch = taken
                waits = 0
            }
            do {
                try commit(batch)
            } catch {
                fail(batch.records.count, error)
                return
            }
            retiredSegments += journal.commit(batch)
            ledger.record(batch.torn, namespace: Self.tornNamespace, reason: .torn)
            let recovering = journal.isRecovering
            let ready: [CheckedContinuation<Void, any Error>] = state.withLock { state in
                state.committed += UInt64(batch.records.count)
                let committed = state.committed
                let ready = state.waiters.filter { $0.isSatisfied(committed: committed, recovering: recovering) }
                state.waiters.removeAll { $0.isSatisfied(committed: committed, recovering: recovering) }
                return ready.map(\.continuation)
            }
            if failureStreak > 0 {
                logger.notice("hermes: the store is writable again", metadata: ["records": "\(batch.records.count)"])
                failureStreak = 0
                journal.unblock()
            }
            ready.forEach { $0.resume() }
            runPromptWork()
        }
    }

    /// Inserts a batch with its journal cursors (three tries) and evicts past each namespace's
    /// cap. Idempotent: a batch retried after a failure inserts only what is missing.
    private func commit(_ batch: JournalBatch) throws {
        let store = try openedStore()
        let cursors = batch.cursors.map { JournalCursor(segment: $0.segment.identity, offset: $0.offset) }
        var lastError: (any Error)?
        for _ in 0..<Self.triesPerAttempt {
            do {
                try closingIfCorrupt { try store.insert(batch.records, journalCursors: cursors, forgetting: retiredSegments) }
                lastError = nil
                break
            } catch let error as DatabaseError where RecordStore.isCorruption(error) {
                throw error
            } catch {
                lastError = error
            }
        }
        if let lastError { throw lastError }
        retiredSegments = []
        var written: [String: Int] = [:]
        for namespace in Set(batch.records.map(\.namespace)) {
            if let limit = configurationService.configuration(for: namespace)?.maxCacheCount {
                let evicted = try store.evict(namespace: namespace, limit: limit)
                ledger.record(evicted, namespace: namespace, reason: .evicted)
            }
            written[namespace] = store.rowCount(namespace)
        }
        if !written.isEmpty { commitObserver.withLock { $0 }?(written) }
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
            logger.error("hermes: cannot write the store; records wait in the journal and will be retried", metadata: ["error": "\(error)"])
        }
        journal.pauseReader()
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        let failure = HermesError(
            .storeUnavailable, "the store cannot be written now (\(error)); \(count)+ records wait in the journal and will be retried")
        waiters.forEach { $0.resume(throwing: failure) }
        guard !state.withLock({ $0.closed }) else { return }
        let delay = min(30.0, 0.5 * Double(1 << min(failureStreak - 1, 6)))
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.retry() }
    }

    private func retry() {
        if journal.claimReader(force: true) { drain() }
    }
}
