package import Foundation
import Hermes

/// `hermes bench monitor`: what one resource sample costs the app (`appMemory` and `appCPU`,
/// taken every `resourceInterval`): reading the platform's figures, and that plus building both
/// records' fields. On Linux the read is `getrusage`, `/proc/self/statm`, and the thermal zones
/// and power supplies under `/sys/class`.
package struct ResourceBenchmark {
    package init() {}

    package func run() -> BenchReport {
        let reader = ResourceReader()
        let first = reader.sample()
        let read = medianSeconds(minimumIterations: 200) { _ = reader.sample() }
        let withRecords = medianSeconds(minimumIterations: 200) {
            let sample = reader.sample()
            _ = sample.memoryMeta
            _ = sample.cpuMeta(since: first, period: .seconds(60), cores: ProcessInfo.processInfo.activeProcessorCount)
        }
        var report = BenchReport()
        report.add("resource_sample_us", read * 1e6, "one resource sample read from the platform (µs, median)")
        report.add("resource_records_us", withRecords * 1e6, "  and both records' fields built (µs, median)")
        return report
    }
}
