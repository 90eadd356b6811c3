import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Reads a ``ResourceSample`` from what the platform tells. The CPU time and the peak come from
/// `getrusage` everywhere; on Linux the resident size, temperatures and power supplies are read
/// from `/proc` and `/sys` (under `proc` and `sys`, which tests point at files of their own).
/// Apple's task and `ProcessInfo` calls are the small part that cannot be compiled here.
package struct ResourceReader: Sendable {
    /// Where `/proc/self` is.
    var proc = "/proc/self"
    /// Where `/sys/class` is.
    var sys = "/sys/class"

    /// The reader of the running system.
    package init() {}

    init(proc: String, sys: String) {
        self.proc = proc
        self.sys = sys
    }

    /// A sample now.
    package func sample() -> ResourceSample {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #endif
        let cpu = Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime)
        var sample = ResourceSample(cpuSeconds: cpu)
        #if canImport(Darwin)
        sample.peakResidentBytes = Int64(usage.ru_maxrss)  // bytes on Apple platforms
        sample.residentBytes = Self.taskResidentBytes()
        sample.thermalState = Self.thermalStateName(ProcessInfo.processInfo.thermalState)
        #if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
        sample.lowPowerMode = ProcessInfo.processInfo.isLowPowerModeEnabled
        #endif
        #else
        sample.residentBytes = residentBytes()
        // Kilobytes on Linux, and the kernel updates its mark lazily: never below the resident size.
        sample.peakResidentBytes = max(Int64(usage.ru_maxrss) * 1_024, sample.residentBytes ?? 0)
        sample.temperatureCelsius = hottestZone()
        (sample.onBattery, sample.batteryPercent) = battery()
        #endif
        return sample
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    /// The second field of `statm`, in pages.
    func residentBytes() -> Int64? {
        guard let text = Self.text(proc + "/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return nil }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The highest `thermal_zone*/temp` (millidegrees), in °C.
    func hottestZone() -> Double? {
        let zones = Self.entries(sys + "/thermal").filter { $0.hasPrefix("thermal_zone") }
        return zones.compactMap { Self.text("\(sys)/thermal/\($0)/temp").flatMap(Double.init) }.max().map { $0 / 1_000 }
    }

    /// Whether a battery discharges, and its capacity, from the first `power_supply` of type
    /// `Battery`; `(nil, nil)` without one (a desktop or a server: mains power).
    func battery() -> (onBattery: Bool?, percent: Int?) {
        for supply in Self.entries(sys + "/power_supply").sorted() where Self.text("\(sys)/power_supply/\(supply)/type") == "Battery" {
            let status = Self.text("\(sys)/power_supply/\(supply)/status")
            return (status.map { $0 == "Discharging" }, Self.text("\(sys)/power_supply/\(supply)/capacity").flatMap(Int.init))
        }
        return (nil, nil)
    }

    private static func entries(_ directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// A small file's text, trimmed.
    private static func text(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    #if canImport(Darwin)
    // Apple only (not compiled on Linux): the task's resident size and the thermal state's name.
    private static func taskResidentBytes() -> Int64? {
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) {
            $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int64(info.resident_size) : nil
    }

    private static func thermalStateName(_ state: ProcessInfo.ThermalState) -> String {
        switch state {
        case .nominal: "nominal"
        case .fair: "fair"
        case .serious: "serious"
        case .critical: "critical"
        @unknown default: "unknown"
        }
    }
    #endif
}
