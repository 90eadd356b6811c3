import Dispatch
@testable import Hermes
import HermesWire
import Testing

struct HangWatchdogTests {
    @Test func aBlockedSerialQueueIsReportedOnceItRunsAgain() async throws {
        // Given a watchdog on a serial queue with a 250 ms threshold
        let queue = DispatchQueue(label: "hermes.tests.watched")
        let reports = Locked<[Duration]>([])
        let reported = DispatchSemaphore(value: 0)
        let watchdog = HangWatchdog(queue: queue, threshold: .milliseconds(250)) { duration in
            reports.withLock { $0.append(duration) }
            reported.signal()
        }
        watchdog.start()

        // When the queue is stuck for 2 s (a stand-in for work that blocks it)
        let release = DispatchSemaphore(value: 0)
        queue.async { _ = release.wait(timeout: .now() + .seconds(2)) }

        // Then the stall is reported once the queue runs again, once, with at least half its
        // length. (The stall is timed from the first ping the watchdog thread sends into it; on a
        // machine loaded by parallel tests that thread may start or wake late, so up to a second
        // of the stall may go unseen. A loaded machine may also really keep the queue waiting
        // past the threshold at other times: such shorter hangs are reported too and not counted
        // here; that one stall is never reported twice is pinned without threads in
        // HangDetectorTests.)
        let stalls = { reports.withLock { $0.filter { $0 >= .seconds(1) } } }
        for _ in 0..<20 where stalls().isEmpty {
            _ = reported.wait(timeout: .now() + 1)
        }
        watchdog.stop()
        queue.sync {}
        #expect(stalls().count == 1)
    }
}
