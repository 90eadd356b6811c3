import Atomics
import CHermesCrash
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import HermesWire
import Logging

extension HermesClient {
    /// Starts what ``Configuration/monitoring`` switches on; called by ``start()``.
    func startMonitoring() {
        let options = configuration.monitoring
        // Before crash capture: the previous run's crash reports tell whether it crashed.
        startRunMonitoring()
        if options.crashes {
            if let failure = CrashCapture.install(in: configuration.storageDirectory, now: configuration.wallClock()) {
                logger.notice("hermes: crash capture is off", metadata: ["reason": "\(failure)"])
            }
            let pass = crashReportingPass()
            addShutdownHook {
                pass.cancel(); await pass.value
            }
        }
        if options.hangs {
            let watchdog = HangWatchdog(
                queue: options.watchedQueue, threshold: options.hangThreshold
            ) { [weak self] duration in self?.recordHang(duration) }
            watchdog.start()
            addShutdownHook { watchdog.stop() }
        }
    }

    /// The pass over the crash reports an earlier run left in this client's storage: the one
    /// running, or a new one. One pass at a time per folder, so no report is sent twice.
    package func crashReportingPass() -> Task<Void, Never> {
        CrashCapture.pass(for: configuration.storageDirectory) { await self.reportPendingCrashes() }
    }

    /// Turns the crash reports an earlier run left into `appCrash` records, symbolicated, and
    /// removes each report once its record is accepted (the journal keeps it from then on) or
    /// refused for good by the configuration; a report the store cannot take now waits for the
    /// next start.
    private func reportPendingCrashes() async {
        for file in CrashCapture.pendingReports(in: configuration.storageDirectory) {
            if Task.isCancelled { return }
            let images = CrashCapture.imagesFile(of: file)
            let remove = { (report: URL) in
                try? FileManager.default.removeItem(at: report)
                try? FileManager.default.removeItem(at: images)
            }
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            // An empty report: that run ended without a crash.
            guard let report = CrashReport(text: text) else { remove(file); continue }
            // Renamed while symbolicated: a run that dies symbolicating it leaves it to be sent raw.
            let retried = file.pathExtension == CrashCapture.symbolicating
            let working = file.deletingPathExtension().appendingPathExtension(CrashCapture.symbolicating)
            guard retried || (try? FileManager.default.moveItem(at: file, to: working)) != nil else { continue }
            let imageList = retried ? [] : CrashImage.parse((try? String(contentsOf: images, encoding: .utf8)) ?? "")
            let stack = CrashSymbolicator().symbolicate(report, images: imageList)
            switch send(type: MonitorType.appCrash, meta: Self.crashMeta(report, symbolicated: !retried), payload: Data(stack.utf8)) {
            case .accepted:
                remove(working)
            case .rejected(let error) where [.bufferFull, .storeUnavailable, .shutDown].contains(error.code):
                // Kept for the next start, symbolicated again there.
                if !retried { try? FileManager.default.moveItem(at: working, to: file) }
            case .rejected:
                remove(working)
            }
        }
    }

    /// The fields of an `appCrash` record: the signal, its code, the faulting address and the
    /// crash's own time (`CREATE_TIME` is when Hermes took the record, at the next start).
    static func crashMeta(_ report: CrashReport, symbolicated: Bool) -> [String: JSONValue] {
        [
            "signal": .string(CrashReport.signalName(report.signal)),
            "signalNumber": .int(Int64(report.signal)),
            "signalCode": .int(Int64(report.code)),
            "faultAddress": .string("0x" + String(report.address, radix: 16)),
            "crashTime": .int(report.time),
            "crashPid": .int(report.pid),
            "crashThread": .int(report.thread),
            "frameCount": .int(Int64(report.frames.count)),
            "reportComplete": .bool(report.isComplete),
            "symbolicated": .bool(symbolicated),
        ]
    }

    /// Records how long the app took to launch: an `appBoot` record with the milliseconds from
    /// the process start, as the kernel recorded it, to this call. Call it once the first
    /// screen is usable; only the first call in a process records.
    ///
    /// ```swift
    /// client.start()
    /// // … build the first screen …
    /// client.markLaunched()
    /// ```
    /// - Returns: the outcome of the record, or `nil` when launch monitoring is off, the launch
    ///   was marked already, or the platform does not say when the process started.
    @discardableResult
    public func markLaunched() -> SendOutcome? {
        guard configuration.monitoring.launch, !Self.launchMarked.exchange(true, ordering: .relaxed),
            let milliseconds = LaunchTime.sinceProcessStart()
        else { return nil }
        return send(type: MonitorType.appBoot, meta: ["launchMs": .int(milliseconds)])
    }

    private static let launchMarked = ManagedAtomic<Bool>(false)

    /// Records a hang the watchdog saw end.
    func recordHang(_ duration: Duration) {
        send(
            type: MonitorType.appLag,
            meta: [
                "durationMs": .int(duration.milliseconds),
                "thresholdMs": .int(configuration.monitoring.hangThreshold.milliseconds),
                "queue": .string(configuration.monitoring.watchedQueue.label),
            ])
    }

    /// Records `net` / `netError` for the app's `URLSession` traffic without a wrapper: call it
    /// once. Every `http(s)` request a session sends through `URLProtocol`'s registered classes
    /// (`URLSession.shared`; on Linux also sessions of the `.default` and `.ephemeral`
    /// configurations) is then sampled as ``instrumented(_:)`` samples it, and its answer handed
    /// back unchanged. On Apple platforms a session with a configuration of its own is captured
    /// once that configuration goes through ``capturing(_:)``. Hermes' own requests are never
    /// captured. Gated by ``MonitoringOptions/network`` and the `monitorList` like the others;
    /// the last client that calls it receives the samples.
    public func captureNetwork() {
        NetworkCapture.start(for: self)
    }

    /// `configuration` with the capture of ``captureNetwork()`` first among its protocol classes,
    /// for a session the app makes with a configuration of its own. Samples go to this client
    /// from then on (one client per process takes them: the last to call this or
    /// ``captureNetwork()``).
    public func capturing(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        NetworkCapture.configure(configuration, for: self)
    }

    /// A wrapper of `session` whose requests record `net` / `netError` samples.
    /// - Parameter session: the session to send with (`URLSession.shared` by default).
    /// - Returns: the instrumented session.
    public func instrumented(_ session: URLSession = .shared) -> InstrumentedSession {
        InstrumentedSession(session: session, client: self)
    }

    /// Records a network sample, when network monitoring is on.
    func recordNetworkSample(type: String, _ meta: [String: JSONValue]) {
        guard configuration.monitoring.network else { return }
        send(type: type, meta: meta)
    }

    /// Gives the calling thread an alternate signal stack, so that a stack overflow on it is
    /// reported too. Crash capture gives one to the thread that calls ``start()``; threads
    /// created later (your own `Thread`s) call this once when they begin.
    public static func prepareThreadForCrashCapture() {
        _ = hermes_crash_prepare_thread()
    }

    /// Lists the loaded libraries again for crash symbolication: call it after `dlopen`.
    public static func refreshCrashImages() {
        CrashCapture.refreshImages()
    }
}
