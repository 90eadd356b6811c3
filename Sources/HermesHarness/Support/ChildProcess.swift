package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process whose standard output the parent reads line by line, waiting with a
/// deadline, so that a parent can kill it at a moment the child announces, or read what it
/// reports.
/// Blocking: use it from a thread of its own, not from a concurrency task.
package final class ChildProcess {
    private let process = Process()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// The running `hermes` executable, to start again as a child.
    package static func hermesExecutable() throws -> URL {
        guard let executable = Bundle.main.executableURL else { throw RunFailure("cannot find the hermes executable to start as a child") }
        return executable
    }

    /// Starts `executable` with `arguments`; its standard error is the parent's.
    package init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Reads lines until `line` has been seen `occurrences` times (counting from this call).
    /// - Returns: `false` when the child closed its output or `timeout` passed first.
    package func waitFor(_ line: String, occurrences: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var seen = 0
        while seen < occurrences {
            guard let next = nextLine(until: deadline) else { return false }
            if next == line { seen += 1 }
        }
        return true
    }

    /// The child's process id.
    package var pid: Int32 { process.processIdentifier }

    /// Kills the child with SIGKILL (no chance to clean up) and reaps it.
    package func sigkill() {
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// How a child ended: its exit status and the lines it printed that no wait had read.
    package struct Exit {
        package var status: Int32
        package var lines: [String]
    }

    /// Waits for the child to exit, reading the rest of its output; kills it first if it is
    /// still running after `timeout`.
    package func wait(timeout: Duration) -> Exit {
        let deadline = ContinuousClock.now + timeout
        var lines: [String] = []
        while let line = nextLine(until: deadline) { lines.append(line) }
        if process.isRunning { sigkill() }
        process.waitUntilExit()
        return Exit(status: process.terminationStatus, lines: lines)
    }

    /// The next line of output, or `nil` at the end of the output or past `deadline`.
    private func nextLine(until deadline: ContinuousClock.Instant) -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 1_000))
            guard poll(&request, 1, milliseconds) >= 0 else { return nil }
            guard request.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }
}
