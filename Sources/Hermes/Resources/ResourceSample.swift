package import HermesWire

/// One reading of the process's resources and of the device's thermal and power state: what
/// `appMemory` and `appCPU` records carry. A field the platform does not tell is `nil`.
package struct ResourceSample: Sendable, Equatable {
    /// Resident memory now, in bytes (Linux: `/proc/self/statm`; Apple: the task's resident size).
    var residentBytes: Int64?
    /// The most resident memory the process has had, in bytes (`getrusage`'s `ru_maxrss`).
    var peakResidentBytes: Int64?
    /// User plus system CPU time the process has used since it started (`getrusage`).
    var cpuSeconds: Double
    /// Apple's thermal state: `nominal`, `fair`, `serious` or `critical`.
    var thermalState: String?
    /// The hottest thermal zone, in °C (Linux: `/sys/class/thermal`).
    var temperatureCelsius: Double?
    /// Whether the device runs on its battery (Linux: `/sys/class/power_supply`).
    var onBattery: Bool?
    /// The battery's charge, 0 to 100 (Linux: `/sys/class/power_supply`).
    var batteryPercent: Int?
    /// Whether Low Power Mode is on (Apple).
    var lowPowerMode: Bool?

    /// The fields of an `appMemory` record.
    package var memoryMeta: [String: JSONValue] {
        ["residentBytes": residentBytes.map(JSONValue.int) ?? .null, "peakResidentBytes": peakResidentBytes.map(JSONValue.int) ?? .null]
    }

    /// The fields of an `appCPU` record for the period since `previous`, `period` long: the CPU
    /// share (CPU seconds per second: 1 is one core busy the whole period), the cores, and the
    /// thermal and power state the platform tells (others left out).
    package func cpuMeta(since previous: ResourceSample, period: Duration, cores: Int) -> [String: JSONValue] {
        let milliseconds = period.milliseconds
        let share = milliseconds > 0 ? max(0, cpuSeconds - previous.cpuSeconds) * 1_000 / Double(milliseconds) : 0
        var meta: [String: JSONValue] = [
            "cpuShare": .double((share * 1_000).rounded() / 1_000), "cores": .int(Int64(cores)), "periodMs": .int(milliseconds),
        ]
        meta["thermalState"] = thermalState.map(JSONValue.string)
        meta["temperatureCelsius"] = temperatureCelsius.map(JSONValue.double)
        meta["onBattery"] = onBattery.map(JSONValue.bool)
        meta["batteryPercent"] = batteryPercent.map { .int(Int64($0)) }
        meta["lowPowerMode"] = lowPowerMode.map(JSONValue.bool)
        return meta
    }
}
