#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation
package import Hermes
package import HermesLogging
package import HermesWire
package import Logging

/// `hermes bench log`: the caller's cost of one `logger.info(...)` through `HermesLogHandler`
/// on a real client in a temporary folder, from 1 and from 4 threads, with the default save
/// controls (the persister saves every 500 entries while the threads log, and everything is
/// stored before the next run). The threads log faster than the store takes records, so past
/// the journal's room the client refuses saves (`bufferFull`): the refused entries are reported
/// beside the figures (`log_rejected_…`), and the client's log of each refusal is silenced.
package struct LogBenchmark {
    package var callsPerThread = 250_000
    /// Large enough that the buffer rarely overflows while the saver catches up; drops are
    /// reported beside the figures.
    package var bufferLimit = 1_000_000

    package init(callsPerThread: Int = 250_000, bufferLimit: Int = 1_000_000) {
        self.callsPerThread = callsPerThread
        self.bufferLimit = bufferLimit
    }

    package func run() async throws -> BenchReport {
        let single = try await measure(threads: 1)
        let quad = try await measure(threads: 4)
        var report = BenchReport()
        report.add("log_ns_1_thread", single.nanosecondsPerCall, "log call, 1 thread (ns, wall)")
        report.add("log_ns_4_threads", quad.nanosecondsPerCall, "log call, 4 threads (ns, wall)")
        report.add("log_cpu_ns_1_thread", single.cpuNanosecondsPerCall, "log call, 1 thread (ns, caller's CPU time)")
        report.add("log_cpu_ns_4_threads", quad.cpuNanosecondsPerCall, "log call, 4 threads (ns, caller's CPU time)")
        report.add("log_dropped_1_thread", Double(single.dropped), "entries dropped (buffer full), 1 thread")
        report.add("log_dropped_4_threads", Double(quad.dropped), "entries dropped (buffer full), 4 threads")
        report.add("log_rejected_1_thread", Double(single.rejected), "entries the client refused when saved, 1 thread")
        report.add("log_rejected_4_threads", Double(quad.rejected), "entries the client refused when saved, 4 threads")
        return report
    }

    package struct Run {
        package var nanosecondsPerCall: Double
        package var cpuNanosecondsPerCall: Double
        package var dropped: Int
        package var rejected: Int
    }

    /// The calling thread's CPU time in nanoseconds: what a call costs its caller, without the
    /// time the thread waited for a core on a busy machine.
    package static func threadCPUNanoseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    private func measure(threads: Int) async throws -> Run {
        var quietLogger = Logger(label: "hermes.bench")
        quietLogger.logLevel = .error
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var defaults = HermesLogHandler.namespaceDefaults()
        // Room for every entry: eviction past maxCacheCount would measure the store, not logging.
        for name in defaults.keys { defaults[name]?.maxCacheCount = 1_000_000 }
        let client = try HermesClient(
            configuration: .init(
                storageDirectory: directory,
                app: .init(name: "Bench", version: "1.0.0", build: "1"),
                credentials: .init(appKey: "bench", wireFormat: .v2(try AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1))),
                namespaceDefaults: defaults
            ),
            logger: quietLogger
        )
        let persister = LogPersister(client: client, configuration: .init(bufferLimit: bufferLimit))
        let logger = Logger(label: "bench") { HermesLogHandler(label: $0, persister: persister) }
        let calls = callsPerThread
        let perThread = await runThreads(threads) { _ in
            let clock = ContinuousClock()
            let cpuStart = Self.threadCPUNanoseconds()
            let elapsed = clock.measure {
                for _ in 0..<calls { logger.info("request handled") }
            }
            let cpu = Self.threadCPUNanoseconds() - cpuStart
            let wall = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9
            return (wall: wall / Double(calls), cpu: cpu / Double(calls))
        }
        let dropped = persister.droppedEntries
        await client.shutdown()
        let rejected = persister.rejectedEntries
        return Run(
            nanosecondsPerCall: perThread.map(\.wall).reduce(0, +) / Double(threads),
            cpuNanosecondsPerCall: perThread.map(\.cpu).reduce(0, +) / Double(threads),
            dropped: dropped,
            rejected: rejected
        )
    }
}
