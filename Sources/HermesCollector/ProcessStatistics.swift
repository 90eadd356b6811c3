import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the operating system tells of this process, read at each scrape of `/metrics` for the
/// Prometheus client conventions' `process_*` metrics: CPU time, memory, file descriptors.
/// A figure the system cannot give here is `nil` (memory and open descriptors come from
/// `/proc`, which only Linux has).
struct ProcessStatistics: Sendable, Hashable {
    /// User and system CPU time used, in seconds.
    var cpuSeconds: Double?
    /// Resident memory, in bytes.
    var residentBytes: Int?
    /// Virtual memory, in bytes.
    var virtualBytes: Int?
    /// Open file descriptors (sockets included).
    var openFileDescriptors: Int?
    /// The most file descriptors the process may open (its soft limit).
    var maxFileDescriptors: Int?

    /// The process's figures now.
    static func current() -> ProcessStatistics {
        var statistics = ProcessStatistics()
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        if getrusage(who, &usage) == 0 {
            statistics.cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int.max) {
            statistics.maxFileDescriptors = Int(limit.rlim_cur)
        }
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let memory = memory(statm: statm, pageSize: Int(sysconf(Int32(_SC_PAGESIZE))))
        {
            statistics.virtualBytes = memory.virtual
            statistics.residentBytes = memory.resident
        }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // The listing holds the descriptor it was read through.
            statistics.openFileDescriptors = max(descriptors.count - 1, 0)
        }
        return statistics
    }

    /// Virtual and resident bytes from `/proc/self/statm` (sizes in pages: total, resident, …).
    static func memory(statm: String, pageSize: Int) -> (virtual: Int, resident: Int)? {
        let fields = statm.split(whereSeparator: \.isWhitespace).prefix(2).compactMap { Int($0) }
        guard fields.count == 2, pageSize > 0 else { return nil }
        return (fields[0] * pageSize, fields[1] * pageSize)
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }
}
