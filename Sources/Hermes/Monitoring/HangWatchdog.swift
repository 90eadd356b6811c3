import Atomics
import Dispatch
import Foundation
import HermesWire

/// Pings a queue from a thread of its own every half threshold and reports each stall longer
/// than the threshold once it ends (the decisions are ``HangDetector``'s). Stopped by ``stop()``.
final class HangWatchdog: Sendable {
    private let queue: DispatchQueue
    private let detector: Locked<HangDetector>
    private let report: @Sendable (Duration) -> Void
    private let stopped = ManagedAtomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let origin = ContinuousClock.now

    init(queue: DispatchQueue, threshold: Duration, report: @escaping @Sendable (Duration) -> Void) {
        self.queue = queue
        self.detector = Locked(HangDetector(threshold: threshold))
        self.report = report
    }

    func start() {
        let thread = Thread { [self] in
            HermesClient.prepareThreadForCrashCapture()
            let interval = detector.withLock { $0.interval }
            while !stopped.load(ordering: .acquiring) {
                if case .ping(let id) = detector.withLock({ $0.tick(now: self.now) }) {
                    queue.async { [self] in
                        if case .reportHang(let duration) = detector.withLock({ $0.answered(id, now: self.now) }) {
                            report(duration)
                        }
                    }
                }
                _ = wake.wait(timeout: .now() + .milliseconds(Int(max(1, interval.milliseconds))))
            }
            finished.signal()
        }
        thread.name = "hermes.hang-watchdog"
        thread.start()
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }

    private var now: Duration { origin.duration(to: .now) }
}
