import Clocks
import Foundation
@testable import Hermes
import HermesWire
import Testing

/// `appMemory` and `appCPU` every interval, when the monitor list has them, and the run marker.
struct ResourceMonitorTests {
    @Test(arguments: [true, false])
    func aListedClientRecordsMemoryAndCPUEachIntervalAndNotesThemInItsRunMarker(listed: Bool) async throws {
        let harness = Harness()
        var hermes = Harness.quietHermes
        if listed { hermes.monitorList += [MonitorItem(type: MonitorType.appMemory), MonitorItem(type: MonitorType.appCPU)] }
        var configuration = harness.configuration(defaults: ["hermes": hermes])
        configuration.monitoring.resourceReader = try ResourceReaderTests.fakeSystem(in: harness.directory.appendingPathComponent("system"))
        configuration.monitoring.resourceInterval = .seconds(30)
        let client = try HermesClient(configuration: configuration)
        client.start()

        // When two intervals pass on the client's clock
        // (each interval's sample taken before the clock moves on, so that its period is the interval)
        var types: [String] = []
        var marker: RunMarker?
        for interval in 1...2 {
            await harness.clock.advance(by: .seconds(30))
            for _ in 0..<5_000 where types.count < (listed ? 2 * interval : 0) || marker?.residentBytes == nil {
                await Task.yield()
                try await client.flush()
                // (unlisted, nothing to count: the store may still be opening)
                if listed { types = try harness.metas("meta").compactMap { $0["MONITOR_TYPE"]?.stringValue }.filter { $0.hasPrefix("app") } }
                marker = RunMarker.read(in: harness.directory)
            }
        }
        await client.shutdown()

        // Then, listed, each interval gave an appMemory with the resident size and an appCPU with
        // its period and temperature; unlisted, none; either way the marker holds the sample
        let pages = 25 * Int64(sysconf(Int32(_SC_PAGESIZE)))
        let metas = try harness.metas("meta")
        types = metas.compactMap { $0["MONITOR_TYPE"]?.stringValue }.filter { $0.hasPrefix("app") }
        #expect(types.sorted() == (listed ? ["appCPU", "appCPU", "appMemory", "appMemory"] : []))
        if listed {
            #expect(metas.filter { $0["MONITOR_TYPE"] == "appMemory" }.allSatisfy { $0["residentBytes"] == .int(pages) })
            let cpu = try #require(metas.first { $0["MONITOR_TYPE"] == "appCPU" })
            #expect(cpu["periodMs"] == 30_000 && cpu["temperatureCelsius"] == .double(61.5) && cpu["onBattery"] == true)
        }
        #expect(marker?.residentBytes == pages && marker?.cleanExit == false)
        #expect(RunMarker.read(in: harness.directory)?.cleanExit == true)
    }
}
