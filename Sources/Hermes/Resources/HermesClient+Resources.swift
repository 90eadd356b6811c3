import Foundation
import HermesWire

extension HermesClient {
    /// Starts what ``MonitoringOptions/abnormalExits`` and ``MonitoringOptions/resources`` turn
    /// on: the previous run judged (`appAbnormalExit`), this run's marker, the resource samples.
    func startRunMonitoring() {
        let options = configuration.monitoring
        let storage = configuration.storageDirectory
        let now = configuration.wallClock()
        if options.abnormalExits {
            let pid = Int64(ProcessInfo.processInfo.processIdentifier)
            if let meta = AbnormalExit.meta(
                previous: RunMarker.read(in: storage), crashedPIDs: CrashCapture.crashedPIDs(in: storage), currentPID: pid,
                appVersion: configuration.app.version, now: now, backgroundEndsAreNormal: AbnormalExit.backgroundEndsAreNormal)
            {
                sendMonitored(MonitorType.appAbnormalExit, meta)
            }
            let marker = RunMarker(
                pid: pid, startedAt: now, appVersion: configuration.app.version, sessionID: sessionID, lastSeenAt: now, residentBytes: nil,
                foreground: true, cleanExit: false)
            let recorder = RunRecorder(marker, storage: storage)
            runRecorder.withLock { $0 = recorder }
            addShutdownHook { [wallClock = configuration.wallClock] in recorder.finish(now: wallClock()) }
        }
        if options.resources {
            let monitor = ResourceMonitor(interval: options.resourceInterval, clock: monotonicClock, reader: options.resourceReader)
            monitor.start { [weak self] sample, previous, period in self?.recordResources(sample, previous: previous, period: period) }
            addShutdownHook { await monitor.stop() }
        }
    }

    /// Notes the app's foreground state in the run marker.
    func noteForeground(_ foreground: Bool) {
        let now = configuration.wallClock()
        runRecorder.withLock { $0 }?.update {
            $0.foreground = foreground
            $0.lastSeenAt = now
        }
    }

    /// Notes a sample in the run marker and sends its `appMemory` and `appCPU` records.
    private func recordResources(_ sample: ResourceSample, previous: ResourceSample, period: Duration) {
        let (now, session) = (configuration.wallClock(), sessionID)
        runRecorder.withLock { $0 }?.update {
            $0.lastSeenAt = now
            $0.residentBytes = sample.residentBytes
            $0.sessionID = session
        }
        sendMonitored(MonitorType.appMemory, sample.memoryMeta)
        sendMonitored(MonitorType.appCPU, sample.cpuMeta(since: previous, period: period, cores: ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Sends `meta` as `type` to `hermes` when the namespace's monitor list has the type (so an
    /// unlisted type is not a rejection logged every period).
    private func sendMonitored(_ type: String, _ meta: [String: JSONValue]) {
        guard configurationService.configuration(for: ConfigurationDocument.hermesNamespace)?.monitorItem(for: type) != nil else { return }
        send(type: type, meta: meta)
    }
}
