import Foundation
@testable import Hermes
import HermesWire
import Testing

/// What a resource sample reads, from files laid out as Linux's `/proc` and `/sys` are.
struct ResourceReaderTests {
    /// A `/proc/self` and a `/sys/class` of its own: 25 resident pages, two thermal zones, mains
    /// power and a discharging battery at 73 %.
    static func fakeSystem(in directory: URL) throws -> ResourceReader {
        let files = [
            "proc/statm": "1000 25 10 1 0 100 0\n",
            "sys/thermal/thermal_zone0/temp": "45000\n",
            "sys/thermal/thermal_zone1/temp": "61500\n",
            "sys/thermal/cooling_device0/type": "Fan\n",
            "sys/power_supply/AC/type": "Mains\n",
            "sys/power_supply/BAT0/type": "Battery\n",
            "sys/power_supply/BAT0/status": "Discharging\n",
            "sys/power_supply/BAT0/capacity": "73\n",
        ]
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return ResourceReader(proc: directory.appendingPathComponent("proc").path, sys: directory.appendingPathComponent("sys").path)
    }

    @Test func procAndSysGiveResidentMemoryTheHottestZoneAndTheBattery() throws {
        let harness = Harness()
        let sample = try Self.fakeSystem(in: harness.directory).sample()
        #expect(sample.residentBytes == 25 * Int64(sysconf(Int32(_SC_PAGESIZE))))
        #expect(sample.temperatureCelsius == 61.5)
        #expect(sample.onBattery == true && sample.batteryPercent == 73)
        #expect(sample.thermalState == nil && sample.lowPowerMode == nil)
    }

    @Test func theRealProcessHasMemoryAndCountsItsCPUTime() {
        let reader = ResourceReader()
        let before = reader.sample()
        var sum = 0.0
        for index in 0..<3_000_000 { sum += sqrt(Double(index)) }
        let after = reader.sample()
        #expect(sum > 0)
        #expect((before.residentBytes ?? 0) > 1_000_000)
        #expect((after.peakResidentBytes ?? 0) >= (after.residentBytes ?? .max))
        #expect(after.cpuSeconds > before.cpuSeconds)
    }

    @Test func aMachineWithoutBatteryOrThermalZonesLeavesThoseOut() throws {
        let harness = Harness()
        let sample = ResourceReader(proc: harness.directory.path, sys: harness.directory.path).sample()
        #expect(sample.residentBytes == nil && sample.temperatureCelsius == nil && sample.onBattery == nil && sample.batteryPercent == nil)
        let meta = sample.cpuMeta(since: sample, period: .seconds(60), cores: 2)
        #expect(Set(meta.keys) == ["cpuShare", "cores", "periodMs"])
    }

    @Test func theCPUShareIsCPUSecondsPerSecondOfThePeriod() {
        let previous = ResourceSample(cpuSeconds: 10)
        var sample = ResourceSample(residentBytes: 5_000, peakResidentBytes: 9_000, cpuSeconds: 25, temperatureCelsius: 40)
        sample.onBattery = false
        let meta = sample.cpuMeta(since: previous, period: .seconds(60), cores: 4)
        #expect(meta["cpuShare"] == .double(0.25) && meta["cores"] == 4 && meta["periodMs"] == 60_000)
        #expect(meta["temperatureCelsius"] == .double(40) && meta["onBattery"] == false && meta["batteryPercent"] == nil)
        #expect(sample.memoryMeta == ["residentBytes": 5_000, "peakResidentBytes": 9_000])
    }
}
