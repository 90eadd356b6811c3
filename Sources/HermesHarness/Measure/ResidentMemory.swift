package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's resident memory: now, and at its peak. On Linux from `/proc/self/status`
/// (`VmRSS`, `VmHWM`), whose peak ``resetPeak()`` can start over; elsewhere the peak is the
/// process's whole-life maximum from `getrusage` and the current size is unknown.
package enum ResidentMemory: Sendable {
    /// Resident bytes now, or `nil` where unknown.
    package static var current: Int? {
        #if os(Linux)
        status("VmRSS")
        #else
        nil
        #endif
    }

    /// Resident anonymous bytes now (heap, stacks, caches: not code or mapped files), or `nil`
    /// where unknown.
    package static var anonymous: Int? {
        #if os(Linux)
        status("RssAnon")
        #else
        nil
        #endif
    }

    /// The most resident bytes since the process started or ``resetPeak()`` was called.
    package static var peak: Int? {
        #if os(Linux)
        return status("VmHWM")
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }

    /// Makes ``peak`` start over from the current size (Linux: writes `5` to
    /// `/proc/self/clear_refs`); does nothing elsewhere.
    package static func resetPeak() {
        #if os(Linux)
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, "5", 1)
        close(descriptor)
        #endif
    }

    #if os(Linux)
    /// A `kB` line of `/proc/self/status`, in bytes.
    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("\(field):") {
            let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
    #endif
}
