import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long ago the kernel started this process: the `appBoot` figure at
/// ``HermesClient/markLaunched()``.
enum LaunchTime {
    /// Milliseconds from the process start to now, or `nil` where the platform does not say.
    static func sinceProcessStart() -> Int64? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8)
        else { return nil }
        return milliseconds(stat: stat, uptime: uptime, ticksPerSecond: Int64(sysconf(Int32(_SC_CLK_TCK))))
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.size
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
        guard sysctl(&name, 4, &info, &size, nil, 0) == 0 else { return nil }
        let start = info.kp_proc.p_un.__p_starttime
        let started = Double(start.tv_sec) + Double(start.tv_usec) / 1_000_000
        return Int64((Date().timeIntervalSince1970 - started) * 1_000)
        #else
        return nil
        #endif
    }

    /// Linux: the process's start (field 22 of `/proc/self/stat`, clock ticks after boot)
    /// against the time since boot (the first figure of `/proc/uptime`, seconds).
    /// - Returns: milliseconds, or `nil` when either text is not what the kernel writes.
    static func milliseconds(stat: String, uptime: String, ticksPerSecond: Int64) -> Int64? {
        // Field 2, the command name, is in parentheses and may hold spaces: count after it.
        guard ticksPerSecond > 0, let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        guard fields.count > 19, let startTicks = Int64(fields[19]), (0..<Int64.max / 1_000).contains(startTicks),
            let upSeconds = uptime.split(separator: " ").first.flatMap({ Double($0) }), (0..<1e12).contains(upSeconds)
        else { return nil }
        let upMilliseconds = Int64((upSeconds * 1_000).rounded())
        return max(0, upMilliseconds - startTicks * 1_000 / ticksPerSecond)
    }
}
