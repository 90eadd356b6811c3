/// A crash report as the signal handler wrote it: one fact per line (`signal 11`,
/// `address 0x0`, `frame 0x55…`, …), ended by `end` unless the handler itself failed part way.
package struct CrashReport: Sendable, Equatable {
    var signal: Int32
    var code: Int32
    var address: UInt64
    /// Milliseconds since 1970 when the handler ran.
    var time: Int64
    var pid: Int64
    var thread: Int64
    /// The program counter, then the return addresses, innermost first.
    var frames: [UInt64]
    /// `false` when the report has no `end` line: the handler stopped part way.
    var isComplete: Bool
}

extension CrashReport {
    /// Reads a report; `nil` when it holds no signal line (nothing was written, or not a report).
    init?(text: String) {
        var signal: Int32?
        var fields: [Substring: Substring] = [:]
        var frames: [UInt64] = []
        var isComplete = false
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard let name = parts.first else { continue }
            let value = parts.count > 1 ? parts[1] : ""
            switch name {
            case "frame": if let address = Self.number(value) { frames.append(address) }
            case "signal": signal = Self.number(value).map { Int32(truncatingIfNeeded: $0) }
            case "end": isComplete = true
            default: fields[name] = value
            }
        }
        guard let signal else { return nil }
        self.signal = signal
        self.code = fields["code"].flatMap { Int32($0) } ?? 0
        self.address = fields["address"].flatMap(Self.number) ?? 0
        self.time = fields["time"].flatMap(Self.number).map { Int64(truncatingIfNeeded: $0) } ?? 0
        self.pid = fields["pid"].flatMap(Self.number).map { Int64(truncatingIfNeeded: $0) } ?? 0
        self.thread = fields["thread"].flatMap(Self.number).map { Int64(truncatingIfNeeded: $0) } ?? 0
        self.frames = frames
        self.isComplete = isComplete
    }

    /// A decimal number, or a hexadecimal one with `0x`.
    static func number(_ text: Substring) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// The signal's name (`SIGSEGV`), or `signal <n>` for one Hermes does not catch.
    package static func signalName(_ signal: Int32) -> String {
        switch signal {
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 8: "SIGFPE"
        case 11: "SIGSEGV"
        case bus: "SIGBUS"
        default: "signal \(signal)"
        }
    }

    /// SIGBUS is 7 on Linux, 10 on Apple platforms.
    private static var bus: Int32 {
        #if canImport(Darwin)
        10
        #else
        7
        #endif
    }
}
