import Atomics
import Dispatch
import Foundation
import Logging
import HermesWire

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
    static let attempts = 2_000
    /// A record whose frame is larger than this gets a segment of its own.
    var dedicatedThreshold: Int { options.segmentBytes / 4 }

    let directory: URL
    let options: Options
    let logger: Logger
    let preparer = DispatchQueue(label: "hermes.journal.preparer")
    /// Drops sealed segments' pages from resident memory; apart from the preparer, so that a
    /// burst of segment making does not keep sealed pages resident.
    let releaser = DispatchQueue(label: "hermes.journal.releaser")
    let state: Locked<State>

    struct State {
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

        /// Frames of segments left by an earlier run that were lost without being read (a
        /// damaged header): counted as torn by the next batch taken.
        var unreportedTorn = 0

        /// Takes up a segment an earlier run left, to be read up to `end`.
        mutating func recover(_ segment: JournalSegment, end: Int) {
            sealed.append(JournalEntry(segment: segment, end: end, isRecovered: true))
            bytesOnDisk += segment.capacity
            nextSequence = max(nextSequence, segment.sequence + 1)
        }

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
                switch Result(catching: { try JournalSegment.reopen(url) }) {
                case .success(.segment(let segment)):
                    state.recover(segment, end: segment.capacity)
                case .success(.unfinished):
                    // A segment whose creation never finished holds no record.
                    try? FileManager.default.removeItem(at: url)
                case .success(.damaged(let segment)):
                    Self.salvage(segment, into: &state, logger: logger)
                case .failure(let error):
                    state.unreportedTorn += 1
                    logger.error(
                        "hermes: a journal segment cannot be read; it is deleted, its records count as torn (at least 1, how many is unknown)",
                        metadata: ["file": "\(url.lastPathComponent)", "error": "\(error)"])
                    try? FileManager.default.removeItem(at: url)
                }
            }
        } catch {
            state.blocked = "the journal folder cannot be used (\(error))"
            logger.error("hermes: the journal cannot be used; accepted records wait in memory until stored", metadata: ["error": "\(error)"])
        }
        self.state = Locked(state)
        scheduleSpares()
    }

    /// Takes up the records of a segment whose header is damaged that still verify, to be read
    /// like any recovered segment's, and counts the frames after them as torn (at least one
    /// when a frame that does not verify stopped the scan: how many followed it is unknown).
    /// Logs one error line for the segment.
    private static func salvage(_ segment: JournalSegment, into state: inout State, logger: Logger) {
        let verified = segment.verifiedFrames()
        let torn = verified.stoppedAtDamage ? 1 : 0
        state.unreportedTorn += torn
        logger.error(
            "hermes: a journal segment's header is damaged; the records that verify are kept, the rest count as torn",
            metadata: [
                "file": "\(segment.url.lastPathComponent)", "records": "\(verified.records)", "torn": "\(torn)",
                "torn_count": "\(verified.stoppedAtDamage ? "at least: what followed the first frame that does not verify is unknown" : "exact")",
            ])
        if verified.records > 0 {
            state.recover(segment, end: verified.end)
        } else {
            segment.remove()
        }
    }

    private static func segmentFiles(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .compactMap { url in JournalSegment.sequence(ofFileNamed: url.lastPathComponent).map { ($0, url) } }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
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

    /// Whether segments left by an earlier run still hold unread frames, or lost frames not yet counted.
    var isRecovering: Bool {
        state.withLock { state in state.unreportedTorn > 0 || state.sealed.contains { $0.isRecovered && !$0.isConsumed } }
    }

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
