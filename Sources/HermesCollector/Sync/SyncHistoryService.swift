import Foundation
package import Logging
import ServiceLifecycle

/// Forgets record sync's tombstones and change set outcomes older than ``SyncRules/historyDays``,
/// once an hour (``SyncStorage/pruneHistory(before:)``). A device whose revision is older than
/// what was forgotten gets a full copy at its next sync.
package struct SyncHistoryService: Service {
    let storage: any SyncStorage
    let days: Int
    let wallClock: @Sendable () -> Int64
    let logger: Logger
    var interval: Duration = .seconds(3_600)

    package init(
        storage: any SyncStorage, days: Int, wallClock: @escaping @Sendable () -> Int64 = CollectorConfiguration.systemWallClock,
        logger: Logger
    ) {
        self.storage = storage
        self.days = days
        self.wallClock = wallClock
        self.logger = logger
    }

    package func run() async throws {
        await runPeriodically(every: interval, wallClock: wallClock) { await pass(now: $0) }
    }

    /// One pass at `now` (milliseconds since 1970).
    /// - Returns: how many tombstones were forgotten, or `nil` if the pass failed (logged).
    @discardableResult
    package func pass(now: Int64) async -> Int? {
        do {
            let removed = try await storage.pruneHistory(before: now - Int64(days) * 86_400_000)
            if removed > 0 { logger.info("old sync tombstones forgotten", metadata: ["history_days": "\(days)", "tombstones": "\(removed)"]) }
            return removed
        } catch {
            logger.error("sync history pass failed; trying again at the next one", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
