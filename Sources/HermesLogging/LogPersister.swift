public import Hermes
public import Logging
import HermesWire
#if canImport(Dispatch)
import Dispatch
#endif

/// The shared, thread-safe half of ``HermesLogHandler``: a bounded buffer of log entries, the
/// save and delete timers, and the task that moves entries into the client's namespaces.
///
/// A `LogHandler` is a value that swift-log copies freely, so everything that must be shared
/// lives here. Make one per client and hand it to every handler.
///
/// - `log` only appends to the buffer under a lock (or counts a drop when it is full); the
///   persister's own task does the saving: at ``HermesLogHandler/Controls/saveThreshold``
///   entries, ``HermesLogHandler/Controls/saveInterval`` after the first unsaved entry, on
///   ``save()``, and on ``shutdown()``, which `HermesClient.shutdown()` calls first.
/// - Saving sends one record per entry: entries at or above ``Configuration/uploadLevel`` to
///   ``Configuration/namespace`` (uploaded under its normal rules), the others at or above
///   ``Configuration/persistLevel`` to ``Configuration/localNamespace``, which never uploads.
/// - Every ``HermesLogHandler/Controls/deleteInterval``, saved entries older than
///   ``HermesLogHandler/Controls/maxAge`` are deleted from both namespaces.
///
/// ```swift
/// let client = try HermesClient(configuration: .init(
///     storageDirectory: dir, app: app, credentials: credentials,
///     namespaceDefaults: HermesLogHandler.namespaceDefaults()))
/// let persister = LogPersister(client: client)
/// LoggingSystem.bootstrap { label in HermesLogHandler(label: label, persister: persister) }
/// ```
public final class LogPersister: Sendable {
    /// What the persister stores, where, and how much it buffers.
    public struct Configuration: Sendable, Hashable {
        /// The namespace of uploaded entries (default `log`); local entries go to
        /// ``localNamespace``. Register both with ``HermesLogHandler/namespaceDefaults(namespace:)``.
        public var namespace: String
        /// The lowest level stored (default `.info`); lower entries are ignored.
        public var persistLevel: Logger.Level
        /// The lowest level uploaded (default `.warning`); stored entries below it stay on the
        /// device and expire by ``HermesLogHandler/Controls/maxAge``.
        public var uploadLevel: Logger.Level
        /// Entries held in memory before a save (default 10,000); past it entries are dropped
        /// and counted in ``LogPersister/droppedEntries``.
        public var bufferLimit: Int
        /// The initial save and delete controls; change them later with ``LogPersister/update(_:)``.
        public var controls: HermesLogHandler.Controls

        /// Creates a configuration.
        public init(
            namespace: String = "log",
            persistLevel: Logger.Level = .info,
            uploadLevel: Logger.Level = .warning,
            bufferLimit: Int = 10_000,
            controls: HermesLogHandler.Controls = .default
        ) {
            self.namespace = namespace
            self.persistLevel = persistLevel
            self.uploadLevel = uploadLevel
            self.bufferLimit = bufferLimit
            self.controls = controls
        }

        /// The namespace of entries that stay on the device: `"<namespace>-local"`.
        public var localNamespace: String { HermesLogHandler.localNamespace(for: namespace) }
    }

    /// What the persister did, for tests to await instead of polling.
    package enum Event: Sendable, Hashable {
        /// Entries were handed to the client (count > 0).
        case saved(Int, SaveReason)
        /// Entries older than `maxAge` were deleted (the count may be 0).
        case deleted(Int)
        /// The store refused a deletion; it runs again at the next occasion.
        case deleteFailed
    }

    /// Why a save ran.
    package enum SaveReason: Sendable, Hashable {
        case threshold, interval, controls, manual, shutdown, signal
    }

    private enum Command: Sendable {
        case save(SaveReason, CheckedContinuation<Void, Never>?)
        case armSaveTimer
        case saveTimerFired(UInt64)
        case delete(CheckedContinuation<Result<Int, any Error>, Never>?)
        case deleteTimerFired(UInt64, at: Duration)
        case stop
    }

    private struct Timer {
        var generation: UInt64
        var task: Task<Void, Never>
    }

    private struct State {
        var buffer: [LogEntry] = []
        var firstUnsavedAt: Duration?
        var saveRequested = false
        var dropped = 0
        var rejected = 0
        var controls: HermesLogHandler.Controls
        var saveTimer: Timer?
        var deleteTimer: Timer?
        var lastDeleteAt: Duration?
        var generation: UInt64 = 0
        var isShutDown = false
        var worker: Task<Void, Never>?
        #if canImport(Dispatch)
        /// Receives SIGTERM after ``saveOnSIGTERM(thenTerminate:)``.
        var signalSource: SignalSource?
        #endif

        mutating func nextGeneration() -> UInt64 {
            generation += 1
            return generation
        }
    }

    /// The configuration the persister was made with (``controls`` holds the live controls).
    public let configuration: Configuration
    let client: HermesClient
    private let timebase: MonotonicClock
    private let state: Locked<State>
    private let commands: AsyncStream<Command>.Continuation
    private let eventSink: AsyncStream<Event>.Continuation
    /// Set while the persister's task sends records, so that whatever the client logs about
    /// them never comes back into the buffer.
    @TaskLocal static var isSaving = false

    /// What the persister did (one consumer; the newest 1,000 events are kept).
    package let events: AsyncStream<Event>

    /// Creates the persister of `client` and starts its task and delete timer. Its
    /// ``shutdown()`` runs at the start of `client.shutdown()`.
    /// - Parameters:
    ///   - client: the client whose namespaces receive the entries; register them with
    ///     ``HermesLogHandler/namespaceDefaults(namespace:)``.
    ///   - configuration: namespace, levels, buffer bound and controls.
    public init(client: HermesClient, configuration: Configuration = .init()) {
        self.client = client
        self.configuration = configuration
        self.timebase = MonotonicClock(client.timerClock)
        self.state = Locked(State(controls: configuration.controls))
        let (stream, commands) = AsyncStream.makeStream(of: Command.self)
        self.commands = commands
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1_000))

        let worker = Task { [weak self] in
            for await command in stream {
                guard let self else { return }
                await self.handle(command)
            }
        }
        let start = timebase.now()
        state.withLock { state in
            state.worker = worker
            if state.controls.deletesPeriodically {
                startDeleteTimer(&state, at: start + state.controls.deleteInterval)
            }
        }
        client.addShutdownHook { [weak self] in await self?.shutdown() }
    }

    deinit {
        commands.finish()
        state.withLock { state in
            state.saveTimer?.task.cancel()
            state.deleteTimer?.task.cancel()
        }
    }

    // MARK: - Reading

    /// The controls in force.
    public var controls: HermesLogHandler.Controls { state.withLock { $0.controls } }
    /// Entries dropped because the buffer was full, or because they came after ``shutdown()``.
    public var droppedEntries: Int { state.withLock { $0.dropped } }
    /// Entries the client refused when they were saved (for example a meta larger than the
    /// namespace's `maxMetaKByte`); the client logs each refusal.
    public var rejectedEntries: Int { state.withLock { $0.rejected } }
    /// Entries waiting in memory for the next save.
    public var pendingEntries: Int { state.withLock { $0.buffer.count } }

    // MARK: - Logging

    /// Buffers an entry; never blocks and does no I/O. Entries below ``Configuration/persistLevel``
    /// are ignored; past ``Configuration/bufferLimit`` the entry is dropped and counted.
    func append(_ event: LogEvent, label: String) {
        guard event.level >= configuration.persistLevel, !Self.isSaving else { return }
        let entry = LogEntry(event: event, label: label, timestamp: client.wallTime)
        state.withLock { state in
            guard !state.isShutDown, state.buffer.count < configuration.bufferLimit else {
                state.dropped += 1
                return
            }
            state.buffer.append(entry)
            if state.buffer.count == 1 {
                state.firstUnsavedAt = timebase.now()
                if state.controls.savesPeriodically { commands.yield(.armSaveTimer) }
            }
            if state.controls.savesAtThreshold, state.buffer.count >= state.controls.saveThreshold, !state.saveRequested {
                state.saveRequested = true
                commands.yield(.save(.threshold, nil))
            }
        }
    }

    // MARK: - Controls

    /// Applies new controls at once, with the database logger's semantics: a threshold lowered
    /// to the buffered count or below saves now; a changed `saveInterval` re-arms the save
    /// timer from the first unsaved entry (zero stops it); a lowered (or newly enabled) `maxAge`
    /// deletes now and restarts the delete timer, a raised one does nothing now, zero stops the
    /// delete timer; a changed `deleteInterval` restarts the delete timer (zero stops it).
    /// - Parameter controls: the new controls.
    public func update(_ controls: HermesLogHandler.Controls) {
        let now = timebase.now()
        state.withLock { state in
            let change = ControlChange(from: state.controls, to: controls, unsaved: state.buffer.count)
            state.controls = controls
            guard !state.isShutDown else { return }
            if change.saveNow, !state.saveRequested {
                state.saveRequested = true
                commands.yield(.save(.controls, nil))
            }
            switch change.saveTimer {
            case .keep: break
            case .stop: stopSaveTimer(&state)
            case .restart:
                stopSaveTimer(&state)
                if let first = state.firstUnsavedAt { startSaveTimer(&state, at: first + controls.saveInterval) }
            }
            if change.deleteNow {
                state.lastDeleteAt = now
                commands.yield(.delete(nil))
            }
            switch change.deleteTimer {
            case .keep: break
            case .stop: stopDeleteTimer(&state)
            case .restart: startDeleteTimer(&state, at: (state.lastDeleteAt ?? now) + controls.deleteInterval)
            }
        }
    }

    // MARK: - Saving and deleting on demand

    /// Saves the buffered entries now (hands them to the client) and returns when they were
    /// handed over; `client.flush()` then makes them durable.
    public func save() async {
        await save(reason: .manual)
    }

    func save(reason: SaveReason) async {
        await withCheckedContinuation { continuation in
            if case .terminated = commands.yield(.save(reason, continuation)) { continuation.resume() }
        }
    }

    /// Deletes saved entries older than ``HermesLogHandler/Controls/maxAge`` now (nothing when
    /// it is zero), after the entries handed to the client before were stored.
    /// - Returns: how many entries were deleted.
    /// - Throws: when the store cannot be written, or `CancellationError` after ``shutdown()``.
    @discardableResult
    public func deleteExpiredEntries() async throws -> Int {
        let result = await withCheckedContinuation { continuation in
            if case .terminated = commands.yield(.delete(continuation)) { continuation.resume(returning: .failure(CancellationError())) }
        }
        return try result.get()
    }

    /// Saves what is buffered, stops the timers and the task; later entries are dropped.
    /// `HermesClient.shutdown()` calls it first, so calling it yourself is only needed to stop
    /// logging before the client stops. Calling it again waits for the first call to finish.
    public func shutdown() async {
        let worker: Task<Void, Never>? = state.withLock { state in
            if !state.isShutDown {
                state.isShutDown = true
                commands.yield(.stop)
            }
            return state.worker
        }
        await worker?.value
        stopSignalHandling()
    }

    // MARK: - The persister's task

    /// Runs one command. After `.stop` the stream is finished, and the commands already in it
    /// still run (so every caller waiting on one resumes) before the task ends.
    private func handle(_ command: Command) async {
        switch command {
        case .save(let reason, let done):
            await performSave(reason)
            done?.resume()
        case .armSaveTimer:
            state.withLock { state in
                guard state.saveTimer == nil, state.controls.savesPeriodically, let first = state.firstUnsavedAt else { return }
                startSaveTimer(&state, at: first + state.controls.saveInterval)
            }
        case .saveTimerFired(let generation):
            if state.withLock({ $0.saveTimer?.generation == generation }) { await performSave(.interval) }
        case .delete(let done):
            let result = await performDelete()
            done?.resume(returning: result)
        case .deleteTimerFired(let generation, let deadline):
            let current = state.withLock { state in
                guard state.deleteTimer?.generation == generation else { return false }
                state.lastDeleteAt = deadline
                return true
            }
            if current { _ = await performDelete() }
        case .stop:
            await performSave(.shutdown)
            state.withLock { state in
                stopSaveTimer(&state)
                stopDeleteTimer(&state)
            }
            commands.finish()
        }
    }

    private func performSave(_ reason: SaveReason) async {
        let (entries, deleteAfter) = state.withLock { state in
            let entries = state.buffer
            // The next buffer is allocated here, on the persister's task, so that `log` callers
            // rarely pay for growing it.
            state.buffer = []
            state.buffer.reserveCapacity(min(max(state.controls.saveThreshold, 64), configuration.bufferLimit))
            state.firstUnsavedAt = nil
            state.saveRequested = false
            stopSaveTimer(&state)
            return (entries, state.controls.deleteOnEverySave && state.controls.deletes)
        }
        guard !entries.isEmpty else { return }
        let namespace = configuration.namespace
        let local = configuration.localNamespace
        let uploadLevel = configuration.uploadLevel
        let rejected = Self.$isSaving.withValue(true) {
            var rejected = 0
            for entry in entries {
                let target = entry.event.level >= uploadLevel ? namespace : local
                if !client.send(type: entry.event.level.rawValue, prefix: target, meta: entry.meta).isAccepted { rejected += 1 }
            }
            return rejected
        }
        if rejected > 0 { state.withLock { $0.rejected += rejected } }
        eventSink.yield(.saved(entries.count, reason))
        if deleteAfter { _ = await performDelete() }
    }

    private func performDelete() async -> Result<Int, any Error> {
        let maxAge = state.withLock { $0.controls.maxAge }
        guard maxAge > .zero else { return .success(0) }
        let ageMilliseconds = maxAge.components.seconds * 1_000 + maxAge.components.attoseconds / 1_000_000_000_000_000
        do {
            let deleted = try await client.deleteRecords(
                in: [configuration.namespace, configuration.localNamespace],
                createdBefore: client.wallTime - ageMilliseconds
            )
            eventSink.yield(.deleted(deleted))
            return .success(deleted)
        } catch {
            eventSink.yield(.deleteFailed)
            return .failure(error)
        }
    }

    #if canImport(Dispatch)
    /// A Dispatch signal source, which Dispatch does not mark `Sendable`.
    final class SignalSource: @unchecked Sendable {
        // @unchecked: a dispatch source may be resumed and cancelled from any thread.
        let source: any DispatchSourceSignal

        init(_ source: any DispatchSourceSignal) {
            self.source = source
        }
    }

    /// Cancels the SIGTERM source in force, if any, and keeps `source` instead.
    /// - Returns: whether there was a source to cancel.
    @discardableResult
    func replaceSignalSource(with source: SignalSource?) -> Bool {
        state.withLock { state in
            let previous = state.signalSource
            previous?.source.cancel()
            state.signalSource = source
            return previous != nil
        }
    }
    #endif

    // MARK: - Timers (under the state lock)

    private func startSaveTimer(_ state: inout State, at deadline: Duration) {
        let generation = state.nextGeneration()
        state.saveTimer = Timer(generation: generation, task: timer(at: deadline, every: nil) { _ in .saveTimerFired(generation) })
    }

    private func stopSaveTimer(_ state: inout State) {
        state.saveTimer?.task.cancel()
        state.saveTimer = nil
    }

    private func startDeleteTimer(_ state: inout State, at deadline: Duration) {
        stopDeleteTimer(&state)
        let generation = state.nextGeneration()
        let interval = state.controls.deleteInterval
        state.deleteTimer = Timer(generation: generation, task: timer(at: deadline, every: interval) { .deleteTimerFired(generation, at: $0) })
    }

    private func stopDeleteTimer(_ state: inout State) {
        state.deleteTimer?.task.cancel()
        state.deleteTimer = nil
    }

    /// A task that sends `fire(deadline)` to the persister's task at `deadline`, then every
    /// `interval` after it when there is one, until cancelled.
    private func timer(at deadline: Duration, every interval: Duration?, _ fire: @escaping @Sendable (Duration) -> Command) -> Task<Void, Never> {
        Task { [timebase, commands] in
            var deadline = deadline
            while true {
                do {
                    try await timebase.sleep(until: deadline)
                } catch {
                    return
                }
                if case .terminated = commands.yield(fire(deadline)) { return }
                guard let interval else { return }
                deadline += interval
            }
        }
    }
}
