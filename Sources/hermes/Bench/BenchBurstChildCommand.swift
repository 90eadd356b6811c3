import ArgumentParser
import Foundation
import Hermes

/// `hermes bench-burst-child`: the fresh process in which `hermes bench store` measures
/// the memory of a burst. It sends `--records` five-property events as fast as it can on one
/// thread, flushes, and prints `rss <bytes when the burst began> <peak bytes since>`.
struct BenchBurstChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-burst-child",
        abstract: "The process in which 'hermes bench store' measures a burst's memory (internal).",
        shouldDisplay: false
    )

    @Option(help: "The client's storage directory.")
    var storage: String

    @Option(help: "Records to send.")
    var records = 100_000

    func validate() throws {
        guard records >= 1 else { throw ValidationError("--records must be at least 1") }
    }

    func run() async throws {
        let client = try StoreBenchmark.client(directory: URL(fileURLWithPath: storage))
        ResidentMemory.resetPeak()
        let start = ResidentMemory.current
        try await onThread { [records] in
            for n in 0..<records where !client.send(type: "appLag", prefix: StoreBenchmark.namespace, meta: SampleRecords.burstEvent(Int64(n))).isAccepted {
                throw RunFailure("burst record \(n) was rejected")
            }
        }
        try await client.flush()
        let peak = ResidentMemory.peak
        await client.shutdown()
        guard let peak else { throw RunFailure("this platform does not tell the process's peak memory") }
        print("rss \(start ?? -1) \(peak)")
    }

    /// The figures of an `rss <start> <peak>` line (a negative start: unknown).
    static func memory(in lines: [String]) -> StoreBenchmark.BurstMemory? {
        for line in lines {
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "rss", let start = Double(words[1]), let peak = Double(words[2]) else { continue }
            return StoreBenchmark.BurstMemory(start: start < 0 ? nil : start, peak: peak)
        }
        return nil
    }
}
