package import Logging
import ServiceLifecycle

/// Groups the crash records stored since its last pass: at start and then every `interval`
/// (2 s by default) until graceful shutdown, it runs ``CrashGroupStorage/groupCrashes(limit:)``
/// steps until one groups fewer than a step's worth (caught up), at most ``maximumSteps`` a pass.
///
/// A pass that fails logs the error once and stops; the next pass tries again.
package struct CrashGroupingService: Service {
    /// How many records one step groups at most.
    package static let stepSize = 1_000
    /// How many steps one pass runs at most, so that a long backlog does not hold the pass.
    package static let maximumSteps = 100

    let storage: any CrashGroupStorage
    let interval: Duration
    let logger: Logger

    package init(storage: any CrashGroupStorage, interval: Duration = .seconds(2), logger: Logger) {
        self.storage = storage
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        await runPeriodically(every: interval) { await pass() }
    }

    /// One pass: steps until caught up, or ``maximumSteps`` of them.
    /// - Returns: how many records the pass grouped.
    @discardableResult
    package func pass() async -> Int {
        var grouped = 0
        do {
            for _ in 0..<Self.maximumSteps {
                let step = try await storage.groupCrashes(limit: Self.stepSize)
                grouped += step
                if step < Self.stepSize { break }
            }
        } catch {
            logger.error("crash grouping pass failed; trying again at the next one", metadata: ["error": "\(error)", "grouped": "\(grouped)"])
        }
        if grouped > 0 { logger.debug("crashes grouped", metadata: ["records": "\(grouped)"]) }
        return grouped
    }
}
