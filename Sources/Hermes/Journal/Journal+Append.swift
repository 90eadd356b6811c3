import Atomics
import Dispatch
import Foundation
import Logging
import HermesWire

// Appending, on the caller's thread: reserve a frame under the lock, copy outside it.
extension Journal {
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
                segment.writers.wrappingDecrement(by: 1, ordering: .releasing)
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
            segment.writers.wrappingIncrement(by: 1, ordering: .relaxed)
            segment.reserve(at: offset, bodyLength: bodyLength)
            state.enqueued += 1
            // An overflow ends when the memory buffer is empty again, not when the journal takes
            // one record between two that wait in memory: its warning is logged once.
            if state.memory.isEmpty { state.overflowLogged = false }
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

    func unclaim(bytes: Int, _ error: any Error) {
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
            state.sealed.append(
                JournalEntry(segment: segment, end: JournalSegment.firstFrame + JournalSegment.frameSize(body: bodyLength), isRecovered: false))
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
}
