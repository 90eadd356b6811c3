import Dispatch
@testable import Hermes
import Synchronization
import Testing

struct HangWatchdogTests {
    @Test func aBlockedSerialQueueIsReportedOnceWithAtLeastItsStall() async throws {
        // Given a watchdog on a serial queue with a 100 ms threshold
        let queue = DispatchQueue(label: "hermes.tests.watched")
        let reports = Mutex<[Duration]>([])
        let reported = DispatchSemaphore(value: 0)
        let watchdog = HangWatchdog(queue: queue, threshold: .milliseconds(100)) { duration in
            reports.withLock { $0.append(duration) }
            reported.signal()
        }
        watchdog.start()

        // When the queue is stuck for 400 ms (a stand-in for work that blocks it)
        let release = DispatchSemaphore(value: 0)
        queue.async { _ = release.wait(timeout: .now() + .milliseconds(400)) }

        // Then one hang is reported once the queue runs again, at least 100 ms long
        #expect(reported.wait(timeout: .now() + 10) == .success)
        watchdog.stop()
        queue.sync {}
        let hangs = reports.withLock { $0 }
        #expect(hangs.count == 1)
        #expect(hangs.first.map { $0 >= .milliseconds(100) } == true)
    }
}
