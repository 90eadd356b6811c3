import HermesWire

extension HermesClient {
    /// Starts the `sdkHealth` records, when ``Configuration/healthInterval`` has them on: one
    /// now, then one every interval. Called once start-up housekeeping is done, so the first
    /// carries what it deleted.
    func startHealthReports() {
        health?.start { [weak self] in await self?.reportHealth() }
    }

    /// Stops the `sdkHealth` timer and, when the client was started and lost records since the
    /// last stored health record, sends one more, so that the losses of a short run are not
    /// forgotten with the process (the ledger is kept in memory).
    func finishHealthReports(started: Bool) async {
        await health?.shutdown { if started { await reportHealth(onlyIfLost: true) } }
    }

    /// Sends an `sdkHealth` record when the `hermes` namespace monitors it: the losses since
    /// the last one stored, the rows waiting in the store, the time since that record.
    /// - Parameter onlyIfLost: send nothing when nothing was lost since the last stored one.
    func reportHealth(onlyIfLost: Bool = false) async {
        guard let health else { return }
        // Read between the writer's transactions; unknown when the store cannot be opened.
        let queueDepth = try? await writer.performPromptly { $0.counts.values.reduce(0, +) }
        health.report(from: ledger, queueDepth: queueDepth, onlyIfLost: onlyIfLost) { meta in
            sendIfMonitored(MonitorType.sdkHealth, meta: meta)
        }
    }
}
