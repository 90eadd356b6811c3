import Foundation
import Logging
import ServiceLifecycle

/// Removes the days older than the retention at start and then every `interval`, until
/// graceful shutdown, counting what went (or that a pass failed) in the metrics.
struct RetentionService: Service {
    let storage: any CollectorStorage
    let days: Int
    let metrics: CollectorMetrics
    let logger: Logger
    var interval: Duration = .seconds(3_600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await pass()
                try? await Task.sleep(for: interval)
            }
        }
        try? await gracefulShutdown()
    }

    /// One pass at the wall clock's now.
    private func pass() async {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        do {
            let outcome = try await storage.removeDays(before: UTCDay.retentionCutoff(keeping: days, now: now))
            metrics.countRetention(outcome)
            if outcome.recordsRemoved > 0 || outcome.daysDropped > 0 {
                logger.info("old days removed", metadata: [
                    "retention_days": "\(days)", "days_dropped": "\(outcome.daysDropped)", "records": "\(outcome.recordsRemoved)",
                ])
            }
        } catch {
            metrics.countRetention(nil)
            logger.error("retention pass failed; trying again at the next one", metadata: ["error": "\(error)"])
        }
    }
}
