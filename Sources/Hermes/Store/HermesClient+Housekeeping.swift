import Logging

extension HermesClient {
    /// Start-up housekeeping (specification §5), with the configuration the server last gave:
    /// this version's, else the previous app version's cached one, else the first fetched one
    /// (it waits for the first fetch to end). See ``HousekeepingPlan`` for what happens when
    /// none exists.
    /// - Returns: `false` when the client shut down first: no round may follow.
    func housekeep() async -> Bool {
        let (configurations, isServerWord) = await configurationService.housekeepingConfigurations()
        guard !Task.isCancelled else { return false }
        let plan = HousekeepingPlan(configurations: configurations, isServerWord: isServerWord)
        let now = configuration.wallClock()
        let version = configuration.app.version
        do {
            // Between two of the writer's transactions once the earlier run's records are in:
            // a burst sent at launch neither delays the first upload nor gets scanned.
            let losses = try await writer.performPromptly(afterRecovery: true) { store in
                let losses = try store.housekeep(plan, now: now, appVersion: version)
                try store.reclaimFreePages()
                return losses
            }
            for (namespace, reasons) in losses {
                for (reason, count) in reasons { ledger.record(count, namespace: namespace, reason: reason) }
            }
        } catch {
            logger.error("hermes: start-up housekeeping failed; it runs again at the next start", metadata: ["error": "\(error)"])
        }
        if !isServerWord {
            logger.notice("hermes: no server configuration yet; rows of other app versions and of unconfigured namespaces are kept")
        }
        return true
    }
}
