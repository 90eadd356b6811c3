import Foundation
@testable import HermesHarness
import HermesWire
import Testing

/// CPU time read from `/proc`, as `hermes bench collector` splits a run's CPU by part.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
struct ProcStatTests {
    @Test func aThreadsCPUIsCountedUnderItsNameAndInItsProcess() throws {
        let name = "procstat-probe"
        let measured = Locked<(before: Double?, after: Double?, process: Double?)>((nil, nil, nil))
        let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        // Given a thread of that name that works until its own reading grows (at most 2,000 rounds)
        let thread = Thread {
            // (named once `start()` has returned: Foundation on Linux cannot name a thread before)
            started.wait()
            Thread.current.name = name
            let before = ProcStat.cpuSeconds(ownThreadsNamed: name)
            var after = before
            var sum: UInt64 = 0
            for round in 0..<2_000 where after == before {
                for value in 0..<200_000 { sum &+= UInt64(value ^ round) }
                after = ProcStat.cpuSeconds(ownThreadsNamed: name)
            }
            let process = ProcStat.cpuSeconds(process: Int(getpid()))
            measured.withLock { $0 = (before, after, process) }
            _ = sum
            done.signal()
        }
        thread.start()
        started.signal()
        done.wait()
        // Then its CPU grew, and the process has used at least that much
        let (before, after, process) = measured.withLock { $0 }
        let start = try #require(before), end = try #require(after)
        #expect(end > start)
        #expect(try #require(process) >= end)
        // And no thread has a name nobody gave
        #expect(ProcStat.cpuSeconds(ownThreadsNamed: "no-such-thread") == 0)
    }

    @Test func aProcessThatIsNotThereHasNoReading() {
        #expect(ProcStat.cpuSeconds(process: Int(Int32.max)) == nil)
    }

    @Test func theProcessCountsItsOwnWriteCallsAndTheirBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("procstat-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 7, count: 10_000)
        // Given the counts before five writes of 10,000 bytes
        let before = try #require(ProcStat.ownWrites)
        for _ in 0..<5 { #expect(chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == 10_000) }
        // Then both grew by at least those (other tests of this process write too)
        let after = try #require(ProcStat.ownWrites)
        #expect(after.calls - before.calls >= 5)
        #expect(after.bytes - before.bytes >= 50_000)
    }
}
