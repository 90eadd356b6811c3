#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time used, user and system, in seconds (`getrusage`).
package enum ProcessTime: Sendable {
    #if os(Linux)
    private typealias Who = __rusage_who_t
    private static let current = Who(RUSAGE_SELF.rawValue)
    private static let children = Who(RUSAGE_CHILDREN.rawValue)
    #else
    private typealias Who = Int32
    private static let current = RUSAGE_SELF
    private static let children = RUSAGE_CHILDREN
    #endif

    /// Seconds of CPU the process has used since it started.
    package static var cpuSeconds: Double { seconds(current) }

    /// Seconds of CPU used by the process's children that have ended and been waited for.
    package static var childrenCPUSeconds: Double { seconds(children) }

    private static func seconds(_ who: Who) -> Double {
        var usage = rusage()
        guard getrusage(who, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
