import HermesWire
import Dispatch
import Foundation

/// Keeps this run's ``RunMarker`` up to date in the storage folder: each change is applied under
/// a lock and written on a serial queue of its own, never on the caller's thread.
final class RunRecorder: Sendable {
    private let storage: URL
    private let marker: Locked<RunMarker>
    private let queue = DispatchQueue(label: "hermes.run-marker")

    /// Writes `marker` (this run's first) and keeps it. The one write on the caller's thread (a
    /// small file, at `start()`): a run killed right after its start must find its marker there.
    init(_ marker: RunMarker, storage: URL) {
        self.storage = storage
        self.marker = Locked(marker)
        marker.write(in: storage)
    }

    /// Changes the marker and writes it, later, on the recorder's queue.
    func update(_ change: @Sendable (inout RunMarker) -> Void) {
        let snapshot = marker.withLock { marker in
            change(&marker)
            return marker
        }
        queue.async { [storage] in snapshot.write(in: storage) }
    }

    /// Marks the run as ended cleanly, and returns once that is written.
    func finish(now: Int64) {
        update {
            $0.cleanExit = true
            $0.lastSeenAt = now
        }
        queue.sync {}
    }
}
