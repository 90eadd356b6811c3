package import Foundation

/// CPU time of processes and threads read from Linux's `/proc` (`utime` + `stime`), for
/// benchmarks that split a run's CPU by part, and the process's own write calls. `nil` where it
/// cannot be read (not Linux, or a process on another host or gone).
package enum ProcStat: Sendable {
    /// Seconds of CPU process `pid` has used (its threads, not its children).
    package static func cpuSeconds(process pid: Int) -> Double? {
        cpuSeconds(statFile: "/proc/\(pid)/stat")
    }

    /// Seconds of CPU used by this process's live threads whose name starts with `prefix`.
    package static func cpuSeconds(ownThreadsNamed prefix: String) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        return tasks.reduce(0) { total, task in
            guard let name = read("/proc/self/task/\(task)/comm"), name.hasPrefix(prefix),
                let seconds = cpuSeconds(statFile: "/proc/self/task/\(task)/stat")
            else { return total }
            return total + seconds
        }
    }

    /// This process's write system calls so far and the bytes they passed (`syscw` and `wchar`
    /// of `/proc/self/io`): files, the temporary files SQLite makes, pipes and sockets alike;
    /// stores into mapped memory are not calls and are not counted.
    package static var ownWrites: (calls: Int, bytes: Int)? {
        guard let text = read("/proc/self/io") else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) { fields[parts[0]] = value }
        }
        guard let calls = fields["syscw"], let bytes = fields["wchar"] else { return nil }
        return (calls, bytes)
    }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    private static func cpuSeconds(statFile path: String) -> Double? {
        // "pid (name) state ppid …": utime and stime are the 12th and 13th fields after the name.
        guard let text = read(path), let nameEnd = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    /// A `/proc` file's text (its size reads as 0, so it is read to its end).
    private static func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
