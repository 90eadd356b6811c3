// `hermes-burst-probe --storage <dir> --records <n>`: an app-sized process (it links only the
// SDK) in which `hermes bench store` measures the resident memory of a burst. It sends `n`
// five-property events as fast as it can on one thread, flushes, and prints
// `rss <bytes when the burst began> <peak bytes since>`.
import Foundation
import Hermes
import HermesBenchKit

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let storage = option("--storage"), let records = option("--records").flatMap(Int.init), records > 0 else {
    FileHandle.standardError.write(Data("usage: hermes-burst-probe --storage <dir> --records <n>\n".utf8))
    exit(2)
}

func burst() async throws {
    let client = try BenchWorkload.client(directory: URL(fileURLWithPath: storage))
    ResidentMemory.resetPeak()
    let start = ResidentMemory.current
    for n in 0..<records where !client.send(type: "appLag", prefix: BenchWorkload.namespace, meta: BenchWorkload.burstEvent(Int64(n))).isAccepted {
        FileHandle.standardError.write(Data("burst record \(n) was rejected\n".utf8))
        exit(1)
    }
    try await client.flush()
    let peak = ResidentMemory.peak ?? -1
    await client.shutdown()
    print("rss \(start ?? -1) \(peak)")
}

try await burst()
