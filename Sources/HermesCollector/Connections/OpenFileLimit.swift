#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds its connections.
package enum OpenFileLimit {
    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// The current (soft) limit, or `nil` when it cannot be read or is unlimited.
    package static var current: Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(limit.rlim_cur)
    }

    /// Raises the limit to `wanted` when the process may (root may raise the hard limit too),
    /// or else to the hard limit.
    package static func raise(to wanted: Int) {
        var limit = rlimit(rlim_cur: rlim_t(wanted), rlim_max: rlim_t(wanted))
        guard setrlimit(resource, &limit) != 0, getrlimit(resource, &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
