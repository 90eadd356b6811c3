import Foundation
import HermesWire
import Logging

/// Starts upload rounds per namespace on every trigger of specification §6 — start, the periodic
/// timer, realtime records, `flushCount`, the network coming back, `upload()` — with one
/// round at a time per namespace and namespaces in parallel, so a hung collector for one
/// never stalls another.
///
/// No round runs before ``ready()``, which the client calls once start-up housekeeping is done
/// (an in-flight row must be back to pending, an old version's row deleted, before a round
/// claims it): triggers before ``start()`` are ignored (the start round sends what they would
/// have), triggers between the two wait for ``ready()``, and so does `upload()`.
final class UploadEngine: Sendable {
    private let context: UploadContext
    private let configurationService: ConfigurationService
    private let defaultEndpoint: URL?
    private let monitor: any NetworkMonitor
    private let clock: MonotonicClock
    private let startDelay: Duration

    private let state = Locked(State())
    private let uploaders = Locked<[String: NamespaceUploader]>([:])
    private let timers = Locked<[String: (period: Duration, task: Task<Void, Never>)]>([:])
    private let background = TaskSet()
    private let random: Locked<SplitMix64>
    private let eventContinuation: AsyncStream<UploadEvent>.Continuation

    /// What the engine does, for tests to await (one consumer).
    let events: AsyncStream<UploadEvent>
    /// The namespaces whose uploads are paused, for `diagnostics()`.
    let blocks: UploadBlocks

    private enum Phase: Sendable {
        /// Before the client's `start()`: triggers are ignored.
        case created
        /// Started; start-up housekeeping runs: triggers wait.
        case starting
        case running
        case stopped
    }

    private struct State: Sendable {
        var phase = Phase.created
        /// Triggers that arrived while starting, in order, each once.
        var held: [Held] = []
        /// `upload()` calls waiting for the engine to run (or stop).
        var waiters: [CheckedContinuation<Phase, Never>] = []
        var throttle = RealtimeThrottle()
        /// ``ready()`` came before ``start()``.
        var housekept = false
    }

    private struct Held: Sendable, Equatable {
        var namespace: String
        var reason: UploadTrigger
    }

    /// - Parameter configurationService: asked for each namespace's configuration at each decision.
    init(
        context: UploadContext, configurationService: ConfigurationService,
        defaultEndpoint: URL?, monitor: any NetworkMonitor, clock: MonotonicClock,
        startDelay: Duration, seed: UInt64
    ) {
        self.context = context
        self.configurationService = configurationService
        self.defaultEndpoint = defaultEndpoint
        self.monitor = monitor
        self.clock = clock
        self.startDelay = startDelay
        self.random = Locked(SplitMix64(seed: seed))
        self.blocks = UploadBlocks(logger: context.logger)
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    // MARK: - Lifecycle

    /// Starts the timers, the network watch and the first round after the start delay; rounds
    /// wait for ``ready()``.
    func start() {
        let starting = state.withLock { state in
            guard state.phase == .created else { return false }
            state.phase = state.housekept ? .running : .starting
            return true
        }
        guard starting else { return }
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
        reschedule(configurationService.namespaces)
    }

    /// Start-up housekeeping is done: rounds may run, and the triggers that came meanwhile do.
    func ready() {
        let woken = state.withLock { state -> (held: [Held], waiters: [CheckedContinuation<Phase, Never>])? in
            if state.phase == .created { state.housekept = true }
            guard state.phase == .starting else { return nil }
            state.phase = .running
            defer {
                state.held.removeAll()
                state.waiters.removeAll()
            }
            return (state.held, state.waiters)
        }
        guard let woken else { return }
        woken.waiters.forEach { $0.resume(returning: .running) }
        woken.held.forEach { trigger($0.namespace, $0.reason) }
    }

    /// Stops every timer and round; a batch in flight goes back to pending.
    func shutdown() async {
        let waiters = state.withLock { state in
            state.phase = .stopped
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume(returning: .stopped) }
        let running = timers.withLock { timers in
            defer { timers.removeAll() }
            return timers.values.map(\.task)
        }
        running.forEach { $0.cancel() }
        await background.cancelAll()
        for task in running { await task.value }
        eventContinuation.finish()
    }

    /// The phase once it is no longer `starting`.
    private func settledPhase() async -> Phase {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.phase == .starting {
                    state.waiters.append(continuation)
                } else {
                    continuation.resume(returning: state.phase)
                }
            }
        }
    }

    // MARK: - Triggers

    /// Starts a round in `namespace` unless one is running or it waits; before ``ready()``,
    /// holds the trigger until then (or ignores it before ``start()``).
    func trigger(_ namespace: String, _ reason: UploadTrigger) {
        let running = state.withLock { state in
            if state.phase == .starting, !state.held.contains(Held(namespace: namespace, reason: reason)) {
                state.held.append(Held(namespace: namespace, reason: reason))
            }
            return state.phase == .running
        }
        guard running else { return }
        eventContinuation.yield(.triggered(namespace: namespace, reason))
        background.spawn { _ = await self.round(namespace, force: false) }
    }

    /// A record of a realtime type was accepted in `namespace`: a round starts now, or at the
    /// end of the throttle's window when one started less than 2 s ago, so that the record goes
    /// up then rather than at the next periodic tick. Cheap on `send`'s path: one lock, and a
    /// timer task at most once per window.
    func realtime(_ namespace: String) {
        let now = clock.now()
        let decision = state.withLock { state in
            state.phase == .running || state.phase == .starting ? state.throttle.record(namespace, now: now) : nil
        }
        switch decision {
        case .triggerNow?:
            trigger(namespace, .realtime)
        case .trigger(let deadline)?:
            background.spawn { [clock] in
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
                let now = clock.now()
                self.state.withLock { $0.throttle.deferredTriggerFired(namespace, now: now) }
                self.trigger(namespace, .realtime)
            }
        case .alreadyDeferred?, nil:
            break
        }
    }

    func triggerAll(_ reason: UploadTrigger) {
        configurationService.namespaces.sorted().forEach { trigger($0, reason) }
    }

    /// Called after each group commit with the row counts of the namespaces written.
    func committed(_ counts: [String: Int]) {
        for (namespace, count) in counts.sorted(by: { $0.key < $1.key }) {
            if let flushCount = configurationService.configuration(for: namespace)?.flushCount, count >= flushCount {
                trigger(namespace, .flushCount)
            }
        }
    }

    /// Restarts the periodic timer of each namespace whose configuration changed, at once.
    func reschedule(_ namespaces: Set<String>) {
        for namespace in namespaces {
            let period = configurationService.configuration(for: namespace).map { Duration.milliseconds(Int64($0.periodicTimerSecond * 1000)) }
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

    /// Stops every periodic timer (the app went to the background) until ``resumeTimers()``.
    func pauseTimers() {
        let running = timers.withLock { timers in
            defer { timers.removeAll() }
            return timers.values.map(\.task)
        }
        running.forEach { $0.cancel() }
    }

    /// Starts the periodic timers again, each a full period from now.
    func resumeTimers() {
        reschedule(configurationService.namespaces)
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

    /// Lifts every pause: a configuration refresh brought a new document (the app key, the URL or
    /// the keys may have changed). The next trigger uploads.
    func configurationRefreshed() async {
        for (namespace, uploader) in uploaders.withLock({ $0 }) where await uploader.liftPause() {
            blocks.lift([namespace], why: "a configuration refresh brought a new document")
        }
    }

    /// Runs a round in every namespace that is configured or holds records, in parallel. Before
    /// the client's `start()`, runs none and answers ``UploadSummary/Outcome/notStarted``; while
    /// it starts, waits for start-up housekeeping first.
    func uploadAll() async -> [String: UploadSummary] {
        switch await settledPhase() {
        case .running:
            break
        case .created:
            return Dictionary(uniqueKeysWithValues: configurationService.namespaces.map { ($0, UploadSummary(namespace: $0, outcome: .notStarted)) })
        case .starting, .stopped:
            return [:]
        }
        let stored = (try? await context.writer.perform { store in Set(store.counts.filter { $0.value > 0 }.keys) }) ?? []
        let namespaces = configurationService.namespaces.union(stored)
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
        guard case .ran(let summary, let retryAt, let again, let pause) = run else { return nil }
        if let pause {
            blocks.apply(pause, namespace: namespace, now: context.wallClock())
            // A packet refused as a whole may be one the configuration no longer allows.
            if case .paused(let refusal, _, _) = pause, refusal.refreshesConfiguration {
                background.spawn { [configurationService] in await configurationService.refresh() }
            }
        }
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
        let configuration = configurationService.configuration(for: namespace) ?? NamespaceConfiguration(isUpload: false)
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
