import Foundation
import HermesWire
import Logging

/// Starts upload rounds per namespace on every trigger of specification §6 — start, the periodic
/// timer, realtime records, `flushCount`, the network coming back, `upload()` — with one
/// round at a time per namespace and namespaces in parallel, so a hung collector for one
/// never stalls another.
final class UploadEngine: Sendable {
    private let context: UploadContext
    private let configuration: @Sendable (String) -> NamespaceConfiguration?
    private let configuredNamespaces: @Sendable () -> Set<String>
    private let defaultEndpoint: URL?
    private let monitor: any NetworkMonitor
    private let clock: MonotonicClock
    private let startDelay: Duration

    private let uploaders = Locked<[String: NamespaceUploader]>([:])
    private let timers = Locked<[String: (period: Duration, task: Task<Void, Never>)]>([:])
    private let background = TaskSet()
    private let random: Locked<SplitMix64>
    private let eventContinuation: AsyncStream<UploadEvent>.Continuation

    /// What the engine does, for tests to await (one consumer).
    let events: AsyncStream<UploadEvent>

    init(context: UploadContext,
         configuration: @escaping @Sendable (String) -> NamespaceConfiguration?,
         configuredNamespaces: @escaping @Sendable () -> Set<String>,
         defaultEndpoint: URL?, monitor: any NetworkMonitor, clock: MonotonicClock,
         startDelay: Duration, seed: UInt64) {
        self.context = context
        self.configuration = configuration
        self.configuredNamespaces = configuredNamespaces
        self.defaultEndpoint = defaultEndpoint
        self.monitor = monitor
        self.clock = clock
        self.startDelay = startDelay
        self.random = Locked(SplitMix64(seed: seed))
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    // MARK: - Lifecycle

    /// Starts the timers, the network watch and the first round after the start delay.
    func start() {
        let deadline = clock.now() + startDelay
        background.spawn { [clock] in
            guard (try? await clock.sleep(until: deadline)) != nil else { return }
            self.triggerAll(.start)
        }
        // Subscribe before returning: a change between start() and the task's first run
        // must not be missed.
        let updates = monitor.updates()
        let initiallyReachable = monitor.status.isReachable
        background.spawn {
            var wasReachable = initiallyReachable
            for await status in updates {
                if status.isReachable, !wasReachable { self.triggerAll(.networkRegained) }
                wasReachable = status.isReachable
            }
        }
        reschedule(configuredNamespaces())
    }

    /// Stops every timer and round; a batch in flight goes back to pending.
    func shutdown() async {
        let running = timers.withLock { timers in
            defer { timers.removeAll() }
            return timers.values.map(\.task)
        }
        running.forEach { $0.cancel() }
        await background.cancelAll()
        for task in running { await task.value }
        eventContinuation.finish()
    }

    // MARK: - Triggers

    /// Starts a round in `namespace` unless one is running or it backs off.
    func trigger(_ namespace: String, _ reason: UploadTrigger) {
        eventContinuation.yield(.triggered(namespace: namespace, reason))
        background.spawn { _ = await self.round(namespace, force: false) }
    }

    private func triggerAll(_ reason: UploadTrigger) {
        configuredNamespaces().sorted().forEach { trigger($0, reason) }
    }

    /// Called after each group commit with the row counts of the namespaces written.
    func committed(_ counts: [String: Int]) {
        for (namespace, count) in counts.sorted(by: { $0.key < $1.key }) {
            if let flushCount = configuration(namespace)?.flushCount, count >= flushCount {
                trigger(namespace, .flushCount)
            }
        }
    }

    /// Restarts the periodic timer of each namespace whose configuration changed, at once.
    func reschedule(_ namespaces: Set<String>) {
        for namespace in namespaces {
            let period = configuration(namespace).map { Duration.milliseconds(Int64($0.periodicTimerSecond * 1000)) }
            let previous = timers.withLock { timers -> Task<Void, Never>? in
                if let period, timers[namespace]?.period == period { return nil }
                let old = timers.removeValue(forKey: namespace)?.task
                if let period { timers[namespace] = (period, makeTimer(namespace, period: period)) }
                return old
            }
            previous?.cancel()
            background.spawn { await self.uploader(namespace).resetBatchSize() }
        }
    }

    private func makeTimer(_ namespace: String, period: Duration) -> Task<Void, Never> {
        var deadline = clock.now() + period
        return Task { [clock] in
            while (try? await clock.sleep(until: deadline)) != nil {
                self.trigger(namespace, .periodic)
                deadline += period
            }
        }
    }

    // MARK: - Rounds

    /// Runs a round in every namespace that is configured or holds records, in parallel.
    func uploadAll() async -> [String: UploadSummary] {
        let stored = (try? await context.writer.perform { store in Set(store.counts.filter { $0.value > 0 }.keys) }) ?? []
        let namespaces = configuredNamespaces().union(stored)
        return await withTaskGroup(of: UploadSummary?.self) { group in
            for namespace in namespaces {
                group.addTask { await self.round(namespace, force: true) }
            }
            var summaries: [String: UploadSummary] = [:]
            for await summary in group {
                if let summary { summaries[summary.namespace] = summary }
            }
            return summaries
        }
    }

    private func round(_ namespace: String, force: Bool) async -> UploadSummary? {
        let jitter = random.withLock { Double($0.next() >> 11) * 0x1p-53 }
        let run = await uploader(namespace).run(force: force, jitter: jitter, now: clock.now) { batchSize in
            await self.makeRound(namespace).run(batchSize: batchSize)
        }
        guard case .ran(let summary, let retryAt, let again) = run else { return nil }
        if let retryAt {
            background.spawn { [clock] in
                guard (try? await clock.sleep(until: retryAt)) != nil else { return }
                self.trigger(namespace, .retry)
            }
        }
        eventContinuation.yield(.finished(summary))
        if retryAt == nil, again {
            trigger(namespace, .rerun)
        }
        return summary
    }

    private func makeRound(_ namespace: String) -> UploadRound {
        let configuration = configuration(namespace) ?? NamespaceConfiguration(isUpload: false)
        return UploadRound(
            namespace: namespace,
            configuration: configuration,
            status: monitor.status,
            endpoint: configuration.url.flatMap(URL.init(string:)) ?? defaultEndpoint,
            context: context
        )
    }

    private func uploader(_ namespace: String) -> NamespaceUploader {
        uploaders.withLock { uploaders in
            if let uploader = uploaders[namespace] { return uploader }
            let uploader = NamespaceUploader()
            uploaders[namespace] = uploader
            return uploader
        }
    }
}
