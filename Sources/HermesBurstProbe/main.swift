// `hermes-burst-probe --storage <dir> --records <n> [--burst <b>] [--collector <url>]`: an
// app-sized process (it runs only the SDK; the harness it links gives it the workload and starts
// nothing) in which `hermes bench store` measures the resident memory of a burst and
// `hermes bench e2e` the device's side of delivery. It starts the client (without a collector it
// waits for its start-up work to end), then sends `n` five-property events as fast as it can on
// one thread, in bursts of `b` (all `n` by default) each followed by `flush()`, so that no burst
// outruns the journal; with a collector it then uploads until every record is delivered.
// It prints `rss <bytes when the burst began> <peak bytes since>`, `anon <anonymous bytes then>
// <anonymous bytes at the end>` and, with a collector, `delivery <seconds> <cpu seconds> <bytes
// posted>` (first send to last record acknowledged) and `rtt <p50 ms> <p99 ms> <first ms>` (one
// upload's round trip, and when the first upload left after the first send). Where the system
// counts them it also prints `io <write calls> <bytes written>`, from the first send to the end.
import Foundation
import Hermes
import HermesHarness

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

guard let storage = option("--storage"), let records = option("--records").flatMap(Int.init), records > 0 else {
    FileHandle.standardError.write(Data("usage: hermes-burst-probe --storage <dir> --records <n> [--burst <b>] [--collector <url>]\n".utf8))
    exit(2)
}
let burstSize = max(1, option("--burst").flatMap(Int.init) ?? records)
let collector = option("--collector").flatMap(URL.init(string:))

func burst() async throws {
    let transport = TimedTransport(PlatformTransport())
    let client = try BenchWorkload.client(directory: URL(fileURLWithPath: storage), collector: collector, transport: transport)
    client.start()
    if collector == nil {
        // Settled, as an app's client is long before a burst: its start-up work (the store
        // opened, recovery, housekeeping) is done and not counted in the burst. With a
        // collector the burst starts at launch, as delivery is measured from there.
        _ = await client.upload()
    }
    ResidentMemory.resetPeak()
    let start = ResidentMemory.current
    let anonymousStart = ResidentMemory.anonymous
    let cpu = ProcessTime.cpuSeconds
    let writes = ProcStat.ownWrites
    let clock = ContinuousClock()
    let began = clock.now
    for start in stride(from: 0, to: records, by: burstSize) {
        for n in start..<min(records, start + burstSize)
        where !client.send(type: "appLag", prefix: BenchWorkload.namespace, meta: BenchWorkload.burstEvent(Int64(n))).isAccepted {
            fail("burst record \(n) was rejected")
        }
        try await client.flush()
    }
    if collector != nil {
        // The rounds that flushCount started meanwhile deliver most; a forced round waits for a
        // running one and drains the rest; the last one finds nothing left.
        for attempt in 0..<100 {
            guard let summary = await client.upload()[BenchWorkload.namespace] else { fail("no round ran for \(BenchWorkload.namespace)") }
            if summary.outcome != .completed { fail("upload ended with \(summary.outcome)") }
            if summary.recordsSent == 0 { break }
            if attempt == 99 { fail("records were still left to upload") }
        }
    }
    let elapsed = began.duration(to: clock.now)
    let cpuSeconds = ProcessTime.cpuSeconds - cpu
    let writesEnd = ProcStat.ownWrites
    let peak = ResidentMemory.peak ?? -1
    let anonymousEnd = ResidentMemory.anonymous
    await client.shutdown()
    print("rss \(start ?? -1) \(peak)")
    if let anonymousStart, let anonymousEnd { print("anon \(anonymousStart) \(anonymousEnd)") }
    if collector != nil {
        print("delivery \(elapsed.seconds) \(cpuSeconds) \(transport.bodyBytes)")
        let firstUpload = transport.firstPostStart.map { began.duration(to: $0) } ?? elapsed
        print("rtt \(transport.percentileMilliseconds(0.5)) \(transport.percentileMilliseconds(0.99)) \(firstUpload.seconds * 1_000)")
    }
    if let writes, let writesEnd { print("io \(writesEnd.calls - writes.calls) \(writesEnd.bytes - writes.bytes)") }
}

try await burst()
