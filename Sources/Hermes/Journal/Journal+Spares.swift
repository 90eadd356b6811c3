import Atomics
import Dispatch
import Foundation
import Logging
import HermesWire

// Spare segments, made and pre-faulted on the preparer's queue so that a caller rarely makes one.
extension Journal {
    func scheduleSpares() {
        let start = state.withLock { state in
            guard !state.preparing, state.spares.count < state.spareTarget else { return false }
            state.preparing = true
            return true
        }
        if start { preparer.async { self.prepareSpares() } }
    }

    /// Makes spares until the target is met, the limit is reached or a segment cannot be made.
    func prepareSpares() {
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
    static func release(_ segment: JournalSegment) {
        for _ in 0..<1_000 where segment.writers.load(ordering: .acquiring) > 0 {
            sched_yield()
        }
        segment.dropResidentPages()
    }
}
