import Dispatch
import Foundation
import Logging
import Synchronization

/// The crash-proof journal between `send` and the store: `send` copies each record into a
/// memory-mapped segment file before it returns, so an accepted record survives the process
/// dying; the store's writer consumes the segments into SQLite and deletes each one once every
/// record in it is committed. At start the segments an earlier run left are read again.
///
/// A caller reserves its frame under a lock held for a few instructions (the offset, the
/// frame's length word) and copies its record outside it, so concurrent callers do not wait on
/// each other's copies. Segments are created, sized and pre-faulted on a background queue and
/// kept as spares; a caller makes one itself only when no spare is ready (a stall, counted).
/// When the journal reaches its size limit or no segment can be made (disk full), records wait
/// in a bounded memory buffer, and past it `send` is refused with `bufferFull`.
final class Journal: @unchecked Sendable {
    // @unchecked: all mutable state is inside `state`; segments are `Sendable` by their own rules.

    /// Sizes and limits.
    struct Options: Sendable {
        /// Bytes per segment file.
        var segmentBytes = 256 << 10
        /// Bytes of segment files at most, spares included.
        var limitBytes = 64 << 20
        /// Records held in memory when the journal cannot take them.
        var memoryLimit = 10_000
        var minSpares = 2
        var maxSpares = 4
    }

    /// What ``append(_:)`` did with a record.
    enum Appended {
        /// In the journal or, when it could not take it, in the memory buffer; `wake`: the
        /// reader is idle and must be started.
        case accepted(wake: Bool)
        case rejected(HermesError)
    }

    /// What ``take(limit:)`` found.
    enum Take {
        /// Records (and torn frames) to commit, then ``commit(_:)``.
        case batch(JournalBatch)
        /// A caller is still copying the next record in; try again in a moment.
        case wait
        /// Nothing left: the reader is marked idle, and the next append wakes it.
        case idle
    }

    static let directoryName = "journal"
    /// Tries of a caller that finds no room before it falls back to the memory buffer (a
    /// stall of at most some 100 ms, while the preparer finishes a segment).
    private static let attempts = 2_000
    /// A record whose frame is larger than this gets a segment of its own.
    var dedicatedThreshold: Int { options.segmentBytes / 4 }

    let directory: URL
    let options: Options
    private let logger: Logger
    private let preparer = DispatchQueue(label: "hermes.journal.preparer")
    /// Drops sealed segments' pages from resident memory; apart from the preparer, so that a
    /// burst of segment making does not keep sealed pages resident.
    private let releaser = DispatchQueue(label: "hermes.journal.releaser")
    private let state: Mutex<State>

    private struct State {
        var active: JournalEntry?
        /// Segments no longer appended to, oldest first, until consumed.
        var sealed: [JournalEntry] = []
        var spares: [JournalSegment] = []
        var spareTarget: Int
        var preparing = false
        var nextSequence: UInt64
        /// Bytes of segment files, spares included.
        var bytesOnDisk = 0
        /// Why no segment can be made now, until space is freed.
        var blocked: String?
        var memory: [PendingRecord] = []
        var enqueued: UInt64 = 0
        var readerActive = false
        var readerPaused = false
        var closed = false
        var stalls = 0
        var overflowLogged = false

        /// Keeps spares in sequence order (a caller's stall may finish before the preparer's segment).
        mutating func addSpare(_ segment: JournalSegment) {
            spares.insert(segment, at: spares.firstIndex { $0.sequence > segment.sequence } ?? spares.endIndex)
        }

        mutating func claimSequence(bytes: Int, limit: Int, stall: Bool = false) -> UInt64? {
            guard !closed, blocked == nil, bytesOnDisk + bytes <= limit else { return nil }
            if stall { stalls += 1 }
            bytesOnDisk += bytes
            defer { nextSequence += 1 }
            return nextSequence
        }

        /// Marks the reader active if it was idle; `true` when the caller must start it.
        mutating func claimReader() -> Bool {
            guard !readerActive, !readerPaused else { return false }
            readerActive = true
            return true
        }
    }

    /// Opens the journal in `directory`/journal, taking up the segments an earlier run left
    /// (read by the first ``take(limit:)`` calls), and starts preparing spares.
    init(storageDirectory: URL, options: Options = Options(), fileProtection: FileProtection, logger: Logger) {
        directory = storageDirectory.appendingPathComponent(Self.directoryName, isDirectory: true)
        self.options = options
        self.logger = logger
        var state = State(spareTarget: options.minSpares, nextSequence: 1)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            fileProtection.apply(toJournal: directory)
            for url in try Self.segmentFiles(in: directory) {
                guard let segment = try? JournalSegment.reopen(url) else {
                    // A segment whose creation never finished holds no record.
                    try? FileManager.default.removeItem(at: url)
                    continue
                }
                state.sealed.append(JournalEntry(segment: segment, end: segment.capacity, isRecovered: true))
                state.bytesOnDisk += segment.capacity
                state.nextSequence = max(state.nextSequence, segment.sequence + 1)
            }
        } catch {
            state.blocked = "the journal folder cannot be used (\(error))"
            logger.error("hermes: the journal cannot be used; accepted records wait in memory until stored", metadata: ["error": "\(error)"])
        }
        self.state = Mutex(state)
        scheduleSpares()
    }

    private static func segmentFiles(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .compactMap { url in JournalSegment.sequence(ofFileNamed: url.lastPathComponent).map { ($0, url) } }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    // MARK: - Appending (the caller's thread)

    /// Makes `record` safe: copies it into the live segment, or (when the journal cannot take
    /// it) into the memory buffer. Never waits on the disk in the common case.
    func append(_ record: PendingRecord) -> Appended {
        let bodyLength = JournalRecordCodec.size(of: record)
        let size = JournalSegment.frameSize(body: bodyLength)
        if size > dedicatedThreshold { return appendDedicated(record, bodyLength: bodyLength) }
        for attempt in 0..<Self.attempts {
            switch reserve(size: size, bodyLength: bodyLength) {
            case .frame(let segment, let offset, let wake):
                segment.write(record, at: offset, bodyLength: bodyLength)
                segment.writers.subtract(1, ordering: .releasing)
                return .accepted(wake: wake)
            case .closed:
                return .rejected(HermesError(.shutDown, "the client was shut down"))
            case .makeSegment:
                makeSegmentNow()
            case .awaitSpare:
                if attempt == 0 { state.withLock { $0.stalls += 1 } }
                usleep(50)
            case .full:
                return buffer(record)
            }
        }
        return buffer(record)
    }

    private enum Reservation {
        case frame(JournalSegment, offset: Int, wake: Bool)
        case closed
        /// No spare is ready: the caller makes one (a stall) and tries again.
        case makeSegment
        /// No spare is ready and the preparer is making the last the limit allows: wait for it.
        case awaitSpare
        /// No segment can be had: the memory buffer.
        case full
    }

    private func reserve(size: Int, bodyLength: Int) -> Reservation {
        let (reservation, sealed, wantSpares) = state.withLock { state -> (Reservation, JournalSegment?, Bool) in
            guard !state.closed else { return (.closed, nil, false) }
            var sealed: JournalSegment?
            if let active = state.active, active.end + size > active.segment.capacity {
                state.sealed.append(active)
                state.active = nil
                sealed = active.segment
            }
            var tookSpare = false
            if state.active == nil {
                guard !state.spares.isEmpty else {
                    guard state.blocked == nil else { return (.full, sealed, false) }
                    if state.bytesOnDisk + options.segmentBytes <= options.limitBytes { return (.makeSegment, sealed, false) }
                    return (state.preparing ? .awaitSpare : .full, sealed, false)
                }
                // Oldest first, so that segment numbers follow the order records arrived in.
                state.active = JournalEntry(segment: state.spares.removeFirst(), end: JournalSegment.firstFrame, isRecovered: false)
                tookSpare = true
            }
            let segment = state.active!.segment
            let offset = state.active!.end
            state.active!.end += size
            segment.writers.add(1, ordering: .relaxed)
            segment.reserve(at: offset, bodyLength: bodyLength)
            state.enqueued += 1
            state.overflowLogged = false
            let wantSpares = tookSpare && !state.preparing && state.spares.count < state.spareTarget
            if wantSpares { state.preparing = true }
            return (.frame(segment, offset: offset, wake: state.claimReader()), sealed, wantSpares)
        }
        if let sealed {
            // Nobody copying into it any more (a lone caller): its pages leave at once, a few
            // microseconds once per segment; otherwise once the last copy ends.
            if sealed.writers.load(ordering: .acquiring) == 0 {
                sealed.dropResidentPages()
            } else {
                releaser.async { Self.release(sealed) }
            }
        }
        if wantSpares { preparer.async { self.prepareSpares() } }
        return reservation
    }

    /// A caller found no spare: makes a segment on its own thread (a stall) and offers it as a
    /// spare; the spare target doubles so that the preparer keeps more ready.
    private func makeSegmentNow() {
        guard let sequence = claimSequence(bytes: options.segmentBytes, stall: true) else { return }
        do {
            let segment = try JournalSegment.create(sequence: sequence, in: directory, capacity: options.segmentBytes)
            state.withLock { $0.addSpare(segment) }
        } catch {
            unclaim(bytes: options.segmentBytes, error)
        }
    }

    /// Takes a sequence number and `bytes` of the limit for a new segment, or `nil` when the
    /// journal is closed, blocked or full.
    private func claimSequence(bytes: Int, stall: Bool = false) -> UInt64? {
        state.withLock { state in
            if stall { state.spareTarget = min(options.maxSpares, state.spareTarget * 2) }
            return state.claimSequence(bytes: bytes, limit: options.limitBytes, stall: stall)
        }
    }

    private func unclaim(bytes: Int, _ error: any Error) {
        let first = state.withLock { state in
            state.bytesOnDisk -= bytes
            defer { state.blocked = "\(error)" }
            return state.blocked == nil
        }
        if first {
            logger.error("hermes: cannot make a journal segment; records wait in memory until there is room", metadata: ["error": "\(error)"])
        }
    }

    /// A record too large for a shared segment gets a file of its own, made on the caller's
    /// thread (a large payload costs its copy anyway).
    private func appendDedicated(_ record: PendingRecord, bodyLength: Int) -> Appended {
        let capacity = (JournalSegment.firstFrame + JournalSegment.frameSize(body: bodyLength) + 4_095) & ~4_095
        guard let sequence = claimSequence(bytes: capacity) else {
            return state.withLock({ $0.closed }) ? .rejected(HermesError(.shutDown, "the client was shut down")) : buffer(record)
        }
        let segment: JournalSegment
        do {
            segment = try JournalSegment.create(sequence: sequence, in: directory, capacity: capacity)
        } catch {
            unclaim(bytes: capacity, error)
            return buffer(record)
        }
        segment.reserve(at: JournalSegment.firstFrame, bodyLength: bodyLength)
        segment.write(record, at: JournalSegment.firstFrame, bodyLength: bodyLength)
        let wake: Bool? = state.withLock { state in
            guard !state.closed else { return nil }
            state.sealed.append(JournalEntry(segment: segment, end: JournalSegment.firstFrame + JournalSegment.frameSize(body: bodyLength), isRecovered: false))
            state.enqueued += 1
            return state.claimReader()
        }
        // Closed meanwhile: the record stays in the file, read again at the next start.
        guard let wake else { return .rejected(HermesError(.shutDown, "the client was shut down")) }
        return .accepted(wake: wake)
    }

    /// Keeps `record` in memory when the journal cannot take it, up to the limit.
    private func buffer(_ record: PendingRecord) -> Appended {
        enum Outcome { case buffered(wake: Bool, log: Bool), refused(log: Bool), closed }
        let outcome: Outcome = state.withLock { state in
            guard !state.closed else { return .closed }
            let log = !state.overflowLogged
            state.overflowLogged = true
            guard state.memory.count < options.memoryLimit else { return .refused(log: log) }
            state.memory.append(record)
            state.enqueued += 1
            return .buffered(wake: state.claimReader(), log: log)
        }
        switch outcome {
        case .closed:
            return .rejected(HermesError(.shutDown, "the client was shut down"))
        case .buffered(let wake, let log):
            if log { logger.warning("hermes: the journal is full or cannot grow; accepted records wait in memory until stored") }
            return .accepted(wake: wake)
        case .refused(let log):
            if log { logger.error("hermes: the journal and the memory buffer are full; records are refused until the store catches up") }
            return .rejected(HermesError(.bufferFull, "the journal is full and \(options.memoryLimit) records already wait in memory"))
        }
    }

    // MARK: - Spares (the preparer's queue)

    private func scheduleSpares() {
        let start = state.withLock { state in
            guard !state.preparing, state.spares.count < state.spareTarget else { return false }
            state.preparing = true
            return true
        }
        if start { preparer.async { self.prepareSpares() } }
    }

    /// Makes spares until the target is met, the limit is reached or a segment cannot be made.
    private func prepareSpares() {
        while true {
            let sequence: UInt64? = state.withLock { state in
                guard state.spares.count < state.spareTarget,
                      let sequence = state.claimSequence(bytes: options.segmentBytes, limit: options.limitBytes)
                else {
                    state.preparing = false
                    return nil
                }
                return sequence
            }
            guard let sequence else { return }
            do {
                let segment = try JournalSegment.create(sequence: sequence, in: directory, capacity: options.segmentBytes)
                let closed = state.withLock { state in
                    if !state.closed { state.addSpare(segment) }
                    return state.closed
                }
                if closed { segment.remove() }
            } catch {
                state.withLock { $0.preparing = false }
                unclaim(bytes: options.segmentBytes, error)
                return
            }
        }
    }

    /// Once the last caller has finished copying into a sealed segment, lets its pages leave
    /// the process's resident memory (they stay in the file until the reader consumes them).
    private static func release(_ segment: JournalSegment) {
        for _ in 0..<1_000 where segment.writers.load(ordering: .acquiring) > 0 {
            sched_yield()
        }
        segment.dropResidentPages()
    }

    // MARK: - Reading (the store writer's queue)

    /// Reads up to `limit` records the store has not committed yet: the segments' complete
    /// frames in order, then the memory buffer. Nothing is consumed until ``commit(_:)``.
    func take(limit: Int) -> Take {
        let (sealed, active, memory) = state.withLock { state in (state.sealed, state.active, state.memory.prefix(limit)) }
        let entries = sealed + (active.map { [$0] } ?? [])
        var batch = JournalBatch()
        var waiting = false
        reading: for (index, entry) in entries.enumerated() where !entry.isConsumed {
            var offset = entry.cursor
            defer {
                if offset != entry.cursor { batch.cursors.append((entry.segment, offset)) }
                // What was read is now in the batch: the pages of a sealed segment leave the
                // process's resident memory again (a retry reads them back from the page cache).
                if index < sealed.count, entry.segment.writers.load(ordering: .acquiring) == 0 {
                    entry.segment.dropResidentPages()
                }
            }
            while offset < entry.end, batch.records.count < limit {
                switch entry.segment.frame(at: offset) {
                case .record(let record, let size):
                    batch.records.append(record)
                    offset += size
                case .damaged(let size):
                    batch.torn += 1
                    offset += size
                case .incomplete(let size):
                    guard entry.isRecovered else {
                        waiting = true
                        break reading
                    }
                    batch.torn += 1
                    offset += size
                case .end:
                    // Only a segment from an earlier run ends before its capacity.
                    offset = entry.end
                }
            }
            if batch.records.count >= limit { break }
        }
        if !waiting, batch.records.count < limit {
            batch.fromMemory = min(memory.count, limit - batch.records.count)
            batch.records += memory.prefix(batch.fromMemory)
        }
        guard batch.isEmpty else { return .batch(batch) }
        if waiting { return .wait }
        // Nothing unread in the snapshot: idle, unless an append arrived since.
        let (idle, extraSpares) = state.withLock { state -> (Bool, [JournalSegment]) in
            let unread = !state.memory.isEmpty || state.sealed.contains { !$0.isConsumed } || state.active.map { !$0.isConsumed } == true
            guard !unread else { return (false, []) }
            state.readerActive = false
            state.spareTarget = max(options.minSpares, state.spareTarget / 2)
            let extra = max(0, state.spares.count - state.spareTarget)
            defer {
                state.spares.removeLast(extra)
                state.bytesOnDisk -= extra * options.segmentBytes
            }
            return (true, Array(state.spares.suffix(extra)))
        }
        extraSpares.forEach { $0.remove() }
        return idle ? .idle : take(limit: limit)
    }

    /// Marks a batch committed: advances the cursors, drops the records it took from memory,
    /// and deletes the segments now consumed in full.
    /// - Returns: the identities of the deleted segments, whose saved cursors can go.
    @discardableResult
    func commit(_ batch: JournalBatch) -> [Int64] {
        let finished: [JournalSegment] = state.withLock { state in
            for (segment, offset) in batch.cursors {
                let sequence = segment.sequence
                if state.active?.segment.sequence == sequence {
                    state.active!.cursor = offset
                } else if let index = state.sealed.firstIndex(where: { $0.segment.sequence == sequence }) {
                    state.sealed[index].cursor = offset
                }
            }
            state.memory.removeFirst(batch.fromMemory)
            return Self.takeConsumed(&state)
        }
        return remove(finished)
    }

    /// Seals the live segment when every record in it is committed, and deletes every segment
    /// consumed in full: after it no committed record's bytes stay in a segment file (erasure).
    /// Called by the reader only, like ``commit(_:)``.
    /// - Returns: the identities of the deleted segments, whose saved cursors can go.
    func retireConsumed() -> [Int64] {
        let finished: [JournalSegment] = state.withLock { state in
            if let active = state.active, active.isConsumed, active.segment.writers.load(ordering: .acquiring) == 0 {
                state.sealed.append(active)
                state.active = nil
            }
            return Self.takeConsumed(&state)
        }
        return remove(finished)
    }

    /// Takes the sealed segments consumed in full that no caller is copying into.
    private static func takeConsumed(_ state: inout State) -> [JournalSegment] {
        let done = state.sealed.filter { $0.isConsumed && $0.segment.writers.load(ordering: .acquiring) == 0 }.map(\.segment)
        guard !done.isEmpty else { return [] }
        let sequences = Set(done.map(\.sequence))
        state.sealed.removeAll { sequences.contains($0.segment.sequence) }
        state.bytesOnDisk -= done.reduce(0) { $0 + $1.capacity }
        state.blocked = nil
        return done
    }

    private func remove(_ finished: [JournalSegment]) -> [Int64] {
        finished.forEach { $0.remove() }
        if !finished.isEmpty { scheduleSpares() }
        return finished.map(\.identity)
    }

    /// Takes up the cursors the store saved with its commits for segments left by an earlier
    /// run, so records committed before a crash are not read again.
    /// - Returns: the identities of saved cursors that match no such segment (to be forgotten).
    func adopt(savedCursors: [Int64: Int]) -> [Int64] {
        state.withLock { state in
            for index in state.sealed.indices where state.sealed[index].isRecovered {
                if let saved = savedCursors[state.sealed[index].segment.identity] {
                    state.sealed[index].cursor = max(state.sealed[index].cursor, saved)
                }
            }
            let recovered = Set(state.sealed.filter(\.isRecovered).map(\.segment.identity))
            return savedCursors.keys.filter { !recovered.contains($0) }.sorted()
        }
    }

    // MARK: - Reader control and facts

    /// Marks the reader active if it is idle and not paused.
    /// - Returns: `true` when the caller must start it.
    func claimReader(force: Bool = false) -> Bool {
        state.withLock { state in
            if force { state.readerPaused = false }
            return state.claimReader()
        }
    }

    /// The reader stops after a failure: appends do not wake it until ``claimReader(force:)``.
    func pauseReader() {
        state.withLock { state in
            state.readerPaused = true
            state.readerActive = false
        }
    }

    /// Tries again to make segments after they could not be made (the folder was missing or
    /// unwritable, the disk full): called when the store becomes writable again.
    func unblock() {
        guard state.withLock({ $0.blocked != nil }) else { return }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return
        }
        state.withLock { $0.blocked = nil }
        scheduleSpares()
    }

    /// Records appended since the journal opened (the journal's and the memory buffer's).
    var enqueued: UInt64 { state.withLock { $0.enqueued } }

    /// Whether segments left by an earlier run still hold unread frames.
    var isRecovering: Bool { state.withLock { $0.sealed.contains { $0.isRecovered && !$0.isConsumed } } }

    /// Records waiting in the memory buffer.
    var bufferedRecords: Int { state.withLock { $0.memory.count } }

    /// Times a caller found no spare segment and made one itself.
    var stalls: Int { state.withLock { $0.stalls } }

    /// Refuses further appends and deletes the spares; what is in the journal can still be read.
    func close() {
        state.withLock { $0.closed = true }
        // Let a segment in the making land (and be deleted), so that nothing is left behind.
        preparer.sync {}
        let spares = state.withLock { state in
            defer {
                state.bytesOnDisk -= state.spares.count * options.segmentBytes
                state.spares.removeAll()
            }
            return state.spares
        }
        spares.forEach { $0.remove() }
    }

    /// After ``close()`` and a last read: deletes every consumed segment; segments still
    /// holding uncommitted records stay for the next start.
    /// - Returns: the records left in the memory buffer (the store could not take them).
    func finish() -> [PendingRecord] {
        let (entries, memory) = state.withLock { state in
            defer { state.memory.removeAll() }
            return (state.sealed + (state.active.map { [$0] } ?? []), state.memory)
        }
        for entry in entries where entry.isConsumed && entry.segment.writers.load(ordering: .acquiring) == 0 {
            entry.segment.remove()
        }
        return memory
    }
}

/// Records read from the journal for one store transaction.
struct JournalBatch {
    var records: [PendingRecord] = []
    /// Frames that could not be read back (a crash tore them).
    var torn = 0
    /// Where each segment read is to resume once this batch is committed.
    var cursors: [(segment: JournalSegment, offset: Int)] = []
    /// How many of `records` came from the memory buffer (the last ones).
    var fromMemory = 0

    /// Nothing to commit: no record, no torn frame, no cursor moved.
    var isEmpty: Bool { records.isEmpty && torn == 0 && cursors.isEmpty }
}
