import Foundation
package import Logging
import ServiceLifecycle

/// Removes the days older than the retention at start and then every `interval`, until
/// graceful shutdown, counting what went (or that a pass failed) in the metrics.
package struct RetentionService: Service {
    let storage: any CollectorStorage
    let days: Int
    let metrics: CollectorMetrics
    let wallClock: @Sendable () -> Int64
    let logger: Logger
    var interval: Duration = .seconds(3_600)

    package init(
        storage: any CollectorStorage, days: Int, metrics: CollectorMetrics,
        wallClock: @escaping @Sendable () -> Int64 = CollectorConfiguration.systemWallClock, logger: Logger
    ) {
        self.storage = storage
        self.days = days
        self.metrics = metrics
        self.wallClock = wallClock
        self.logger = logger
    }

    package func run() async throws {
        await runPeriodically(every: interval, wallClock: wallClock) { await pass(now: $0) }
    }

    /// One pass: removes what is older than the retention at `now` (milliseconds since 1970).
    package func pass(now: Int64) async {
        do {
            let outcome = try await storage.removeDays(before: UTCDay.retentionCutoff(keeping: days, now: now))
            metrics.countRetention(outcome)
            if outcome.recordsRemoved > 0 || outcome.daysDropped > 0 {
                logger.info(
                    "old days removed",
                    metadata: [
                        "retention_days": "\(days)", "days_dropped": "\(outcome.daysDropped)", "records": "\(outcome.recordsRemoved)",
                    ])
            }
        } catch {
            metrics.countRetention(nil)
            logger.error("retention pass failed; trying again at the next one", metadata: ["error": "\(error)"])
        }
    }
}
