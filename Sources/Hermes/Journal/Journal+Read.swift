import Atomics
import Dispatch
import Foundation
import Logging
import HermesWire

// Reading, on the store writer's queue: take records, commit cursors, retire consumed segments.
extension Journal {
    /// Reads up to `limit` records the store has not committed yet: the segments' complete
    /// frames in order, then the memory buffer, with the frames found lost at open. Nothing is
    /// consumed until ``commit(_:)``.
    func take(limit: Int) -> Take {
        let (sealed, active, memory, lostAtOpen) = state.withLock { state in
            (state.sealed, state.active, state.memory.prefix(limit), state.unreportedTorn)
        }
        let entries = sealed + (active.map { [$0] } ?? [])
        var batch = JournalBatch(torn: lostAtOpen, lostAtOpen: lostAtOpen)
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
            state.unreportedTorn -= batch.lostAtOpen
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
}
