package import Foundation
package import Hermes
package import HermesWire

/// `hermes bench journal`: the cost of one append to the crash-proof journal (the part of
/// `send` that makes a record safe), and how long a new process takes to recover 100,000
/// records a killed one left in its journal (`start()` to `flush()` returning, every record
/// in the store).
package struct JournalBenchmark {
    package var records = 100_000
    package var runs = 3

    package init(records: Int = 100_000, runs: Int = 3) {
        self.records = records
        self.runs = runs
    }

    package func run() async throws -> BenchReport {
        var appendRuns: [[Double]] = []
        var recoveries: [Double] = []
        for _ in 0..<runs {
            let (latencies, recovery) = try await once()
            appendRuns.append(latencies.sorted())
            recoveries.append(recovery)
        }
        func percentile(_ p: Double) -> Double {
            median(appendRuns.map { HermesHarness.percentile(p, ofSorted: $0) })
        }
        var report = BenchReport()
        report.add("append_p50_ns", percentile(0.50), "journal append p50 (ns), ~400-byte meta")
        report.add("append_p99_ns", percentile(0.99), "journal append p99 (ns)")
        report.add("append_p999_ns", percentile(0.999), "journal append p99.9 (ns)")
        report.add("recovery_100k_s", median(recoveries), "recover \(records) records left by a killed process (s)")
        report.add("recovery_records_per_s", Double(records) / median(recoveries), "recovered records/s")
        return report
    }

    /// One run: fill a journal and abandon it, then time a client recovering it.
    private func once() async throws -> ([Double], Double) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-bench-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let metas = (0..<records).map { index in
            try! JSONValue.object(StoreBenchmark.meta(index).merging(["padding": .string(String(repeating: "p", count: 240))]) { $1 }).jsonBytes()
        }
        let latencies = JournalProbe.appendAndAbandon(storageDirectory: directory, namespace: BenchWorkload.namespace, metas: metas)

        let client = try BenchWorkload.client(directory: directory)
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            client.start()
            try await client.flush()
        }
        await client.shutdown()
        let rows = try StoreInspector.inspect(storageDirectory: directory).groups.reduce(0) { $0 + $1.rows }
        guard rows == records else { throw RunFailure("recovered \(rows) of \(records) records") }
        return (latencies, elapsed.seconds)
    }
}
