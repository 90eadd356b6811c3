import Foundation
import HermesWire
import Testing

/// Runs `body` and checks it throws a ``HermesWireError`` with `code`.
func expectWireError<T>(
    _ code: HermesWireError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) {
    do {
        _ = try body()
        Issue.record("expected HermesWireError.\(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as HermesWireError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected HermesWireError.\(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Nonces 1, 2, 3, … as 12-byte big-endian numbers: predictable, for test vectors only.
final class CountingNonceGenerator: NonceGenerator, @unchecked Sendable {
    // The counter is guarded by `lock`, so the generator can be shared across tasks.
    private let lock = NSLock()
    private var counter: UInt64 = 0

    func nextNonce() -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        return Array(repeating: 0, count: 4) + withUnsafeBytes(of: counter.bigEndian, Array.init)
    }
}

extension Array where Element == UInt8 {
    init?(hex: String) {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self = bytes
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// An external command's result.
struct ToolResult {
    var status: Int32
    var output: [UInt8]
}

/// Runs an installed command-line tool, or returns `nil` when it is not installed.
func runTool(_ name: String, _ arguments: [String], input: [UInt8]) throws -> ToolResult? {
    let candidates = ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)", "/opt/homebrew/bin/\(name)"]
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let inputPipe = Pipe()
    let outputPipe = Pipe()
    process.standardInput = inputPipe
    process.standardOutput = outputPipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let writer = Thread {
        inputPipe.fileHandleForWriting.write(Data(input))
        try? inputPipe.fileHandleForWriting.close()
    }
    writer.start()
    let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus, output: Array(output))
}

/// Sample meta lines as the SDK would write them.
func sampleMetaLines(_ count: Int) -> [[UInt8]] {
    (0..<count).map { index in
        let meta: JSONValue = [
            "REPORT_ID": .string("report-\(index)"),
            "MONITOR_TYPE": "appLag",
            "CREATE_TIME": .int(1_763_000_000_000 + Int64(index)),
            "duration_ms": .int(Int64(250 + index)),
        ]
        return try! meta.jsonBytes()
    }
}
