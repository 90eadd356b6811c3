// `hermes-crash-probe --storage <dir> --crash nil|index|null|fatal|thread|wait|clean [--chain <marker>] [--fault-in-handler]`:
// an app that starts a Hermes client (crash capture on, the default) on `<dir>` and then really
// crashes: force-unwrapping nil, indexing past an array's end, writing through a null pointer,
// calling fatalError, or force-unwrapping nil on a thread of its own; or prints `running` and
// waits to be killed (`wait`), or shuts down cleanly and prints `clean` (`clean`; with
// `--net <url>`, after `captureNetwork()` and a GET of the URL through `URLSession.shared`). `--chain` installs a handler before Hermes that appends "chained <signal>"
// to `<marker>`; `--fault-in-handler` makes Hermes' handler fault once while it writes.
// The crash tests and `hermes demo` run it as a child process.
import CHermesCrash
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hermes
import HermesWire

@inline(never) func crashProbeForceUnwrapsNil(_ value: Int?) -> Int {
    value!
}

@inline(never) func crashProbeForceUnwrapsNilOnAThread(_ value: Int?) -> Int {
    value!
}

@inline(never) func crashProbeIndexesPastTheEnd(_ values: [Int], _ index: Int) -> Int {
    values[index]
}

/// Writes at `address`, an address in the unmapped first page (a null pointer plus a field's offset).
@inline(never) func crashProbeWritesThroughNull(_ address: Int) {
    UnsafeMutablePointer<Int>(bitPattern: address)!.pointee = 42
}

@inline(never) func crashProbeCallsFatalError(_ reason: String) -> Never {
    fatalError(reason)
}

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
    return arguments[at + 1]
}

guard let storage = option("--storage"), let crash = option("--crash") else {
    FileHandle.standardError.write(
        Data(
            "usage: hermes-crash-probe --storage <dir> --crash nil|index|null|fatal|thread|wait|clean [--chain <marker>] [--fault-in-handler]\n".utf8)
    )
    exit(2)
}
if let marker = option("--chain") {
    _ = hermes_crash_testing_install_marker_handler(marker)
}
let client = try HermesClient(
    configuration: .init(
        storageDirectory: URL(fileURLWithPath: storage),
        app: .init(name: "CrashProbe", version: "1.0.0", build: "1"),
        credentials: .init(appKey: "crash-probe", wireFormat: .v2(try AESGCMCipher(key: [UInt8](repeating: 7, count: 16), keyID: 1))),
        uploadStartDelay: .seconds(3_600)
    ))
client.start()
// Like an app that lives a moment: an earlier run's report is sent (into the journal) first.
await client.crashReportingPass().value
if CommandLine.arguments.contains("--fault-in-handler") {
    hermes_crash_testing_fault_in_handler()
}
// Values the compiler cannot see through, so each crash happens at run time.
let variable = CommandLine.arguments.count
switch crash {
case "nil": print(crashProbeForceUnwrapsNil(variable > 1_000 ? variable : nil))
case "index": print(crashProbeIndexesPastTheEnd([1, 2, 3], variable + 3))
case "null": crashProbeWritesThroughNull(variable & 0 | 8)
case "fatal": crashProbeCallsFatalError("crash probe: fatalError after \(variable) arguments")
case "wait":
    // An app the system kills (for memory, by a watchdog): no crash report, no shutdown.
    FileHandle.standardOutput.write(Data("running\n".utf8))
    try await Task.sleep(for: .seconds(60))
    exit(3)
case "clean":
    if let url = option("--net").flatMap(URL.init(string:)) {
        // An app that turns the capture on first thing, then uses the shared session.
        client.captureNetwork()
        _ = try? await URLSession.shared.data(from: url)
    }
    await client.shutdown()
    FileHandle.standardOutput.write(Data("clean\n".utf8))
    exit(0)
case "thread":
    // A thread Hermes knows nothing of: no recorded stack bounds, no alternate stack of Hermes'.
    Thread { print(crashProbeForceUnwrapsNilOnAThread(CommandLine.arguments.count > 1_000 ? 1 : nil)) }.start()
    try await Task.sleep(for: .seconds(30))
    exit(3)
default:
    FileHandle.standardError.write(Data("unknown crash '\(crash)'\n".utf8))
    exit(2)
}
