import Clocks
import Foundation
import GRDB
import Hermes
@testable import HermesLogging
import Logging
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LogPersisterTests {
    /// Saves only when asked: no threshold, no interval.
    static let manual = HermesLogHandler.Controls(saveThreshold: 0, saveInterval: .zero)

    // MARK: - Saving

    @Test func entriesAreSavedWhenTheThresholdIsReached() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(.init(saveThreshold: 3, saveInterval: .zero))
        var events = persister.events.makeAsyncIterator()

        logger.info("one")
        logger.info("two")
        #expect(persister.pendingEntries == 2)
        logger.info("three")

        #expect(await events.nextSave() == .saved(3, .threshold))
        try await client.flush()
        #expect(try harness.messages() == ["one", "two", "three"])
        #expect(persister.pendingEntries == 0)
        await client.shutdown()
    }

    @Test func entriesAreSavedOneIntervalAfterTheFirstUnsavedEntry() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(.init(saveThreshold: 0, saveInterval: .seconds(60)))
        var events = persister.events.makeAsyncIterator()

        // Given an entry at 0 s and one at 30 s
        logger.info("first")
        await harness.clock.advance(by: .seconds(30))
        logger.info("second")
        // When 59 s have passed, nothing is saved yet
        await harness.clock.advance(by: .seconds(29))
        #expect(persister.pendingEntries == 2)
        // Then at 60 s both are saved
        await harness.clock.advance(by: .seconds(1))
        #expect(await events.nextSave() == .saved(2, .interval))
        try await client.flush()
        #expect(try harness.messages() == ["first", "second"])

        // And the timer waits for the next first entry: it saves 60 s after it, not before
        logger.info("third")
        await harness.clock.advance(by: .seconds(60))
        #expect(await events.nextSave() == .saved(1, .interval))
        await client.shutdown()
    }

    @Test func savedEntriesOlderThanMaxAgeAreDeletedAtEachDeleteInterval() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(.init(saveThreshold: 1, maxAge: .seconds(600), deleteInterval: .seconds(300)))
        var events = persister.events.makeAsyncIterator()

        logger.info("a")  // stored at 0 min
        #expect(await events.nextSave() == .saved(1, .threshold))
        harness.advanceWallClock(by: .seconds(300))
        await harness.clock.advance(by: .seconds(300))
        #expect(await events.nextDeletion() == .deleted(0))  // 5 min: a is 5 min old

        logger.info("b")  // stored at 5 min
        #expect(await events.nextSave() == .saved(1, .threshold))
        harness.advanceWallClock(by: .seconds(300))
        await harness.clock.advance(by: .seconds(300))
        #expect(await events.nextDeletion() == .deleted(0))  // 10 min: a is exactly 10 min old, kept

        harness.advanceWallClock(by: .seconds(300))
        await harness.clock.advance(by: .seconds(300))
        #expect(await events.nextDeletion() == .deleted(1))  // 15 min: a goes
        #expect(try harness.messages() == ["b"])

        harness.advanceWallClock(by: .seconds(300))
        await harness.clock.advance(by: .seconds(300))
        #expect(await events.nextDeletion() == .deleted(1))  // 20 min: b goes
        #expect(try harness.messages() == [])
        #expect(client.diagnostics().lost("log-local", .expired) == 2)
        await client.shutdown()
    }

    @Test func deleteOnEverySaveDeletesExpiredEntriesAfterEachSave() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(
            .init(saveThreshold: 1, maxAge: .seconds(600), deleteInterval: .zero, deleteOnEverySave: true))
        var events = persister.events.makeAsyncIterator()

        logger.info("old")
        #expect(await events.next() == .saved(1, .threshold))
        #expect(await events.next() == .deleted(0))
        harness.advanceWallClock(by: .seconds(660))
        logger.info("new")
        #expect(await events.next() == .saved(1, .threshold))
        #expect(await events.next() == .deleted(1))
        #expect(try harness.messages() == ["new"])
        await client.shutdown()
    }

    // MARK: - Live changes

    /// A persister with `maxAge`, holding one entry saved when the wall clock was two hours earlier.
    private struct TwoHourOldEntry {
        let harness = LogHarness()
        let client: HermesClient
        let persister: LogPersister
        let logger: Logger
        var controls: HermesLogHandler.Controls
        var events: AsyncStream<LogPersister.Event>.Iterator

        init(maxAge: Duration, deleteInterval: Duration = .seconds(300)) async throws {
            client = try harness.client()
            controls = LogPersisterTests.manual
            controls.maxAge = maxAge
            controls.deleteInterval = deleteInterval
            persister = harness.persister(client, controls)
            events = persister.events.makeAsyncIterator()
            logger = harness.logger(persister)
            logger.info("two hours old")
            await persister.save()
            #expect(await events.next() == .saved(1, .manual))
            harness.advanceWallClock(by: .seconds(7_200))
        }

        mutating func update(_ edit: (inout HermesLogHandler.Controls) -> Void) {
            edit(&controls)
            persister.update(controls)
        }

        /// Logs and saves a marker: a deletion queued before it would be the next event instead.
        mutating func nextEventAfterSavingAMarker() async -> LogPersister.Event? {
            logger.info("marker")
            await persister.save()
            return await events.next()
        }
    }

    @Test func loweringMaxAgeDeletesAtOnce() async throws {
        var fixture = try await TwoHourOldEntry(maxAge: .seconds(3 * 3_600))
        fixture.update { $0.maxAge = .seconds(3_600) }

        #expect(await fixture.events.next() == .deleted(1))
        #expect(try fixture.harness.messages() == [])
        await fixture.client.shutdown()
    }

    @Test func raisingMaxAgeDeletesNothingAtOnce() async throws {
        var fixture = try await TwoHourOldEntry(maxAge: .seconds(3_600))
        fixture.update { $0.maxAge = .seconds(3 * 3_600) }

        #expect(await fixture.nextEventAfterSavingAMarker() == .saved(1, .manual))
        try await fixture.client.flush()
        #expect(try fixture.harness.messages() == ["two hours old", "marker"])
        await fixture.client.shutdown()
    }

    @Test func turningMaxAgeOffStopsTheDeleteTimer() async throws {
        var fixture = try await TwoHourOldEntry(maxAge: .seconds(3_600))
        fixture.update { $0.maxAge = .zero }
        await fixture.harness.clock.advance(by: .seconds(600))  // two delete intervals

        #expect(await fixture.nextEventAfterSavingAMarker() == .saved(1, .manual))
        try await fixture.client.flush()
        #expect(try fixture.harness.messages() == ["two hours old", "marker"])
        await fixture.client.shutdown()
    }

    @Test func turningSaveIntervalOnStartsTheSaveTimerFromTheFirstUnsavedEntry() async throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = harness.persister(client, Self.manual)
        var events = persister.events.makeAsyncIterator()
        harness.logger(persister).info("waiting")
        await harness.clock.advance(by: .seconds(10))

        var controls = persister.controls
        controls.saveInterval = .seconds(60)
        persister.update(controls)
        await harness.clock.advance(by: .seconds(49))
        #expect(persister.pendingEntries == 1)
        await harness.clock.advance(by: .seconds(1))  // 60 s after the entry

        #expect(await events.nextSave() == .saved(1, .interval))
        await client.shutdown()
    }

    @Test func turningSaveIntervalOffStopsTheSaveTimer() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(.init(saveThreshold: 0, saveInterval: .seconds(60)))
        var events = persister.events.makeAsyncIterator()
        logger.info("waiting")

        var controls = persister.controls
        controls.saveInterval = .zero
        persister.update(controls)
        await harness.clock.advance(by: .seconds(120))
        await persister.save()

        #expect(await events.nextSave() == .saved(1, .manual))
        await client.shutdown()
    }

    @Test func loweringSaveThresholdToTheBufferedCountSavesAtOnce() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(.init(saveThreshold: 10, saveInterval: .zero))
        var events = persister.events.makeAsyncIterator()
        for index in 0..<3 { logger.info("entry \(index)") }

        var controls = persister.controls
        controls.saveThreshold = 3
        persister.update(controls)

        #expect(await events.nextSave() == .saved(3, .controls))
        await client.shutdown()
    }

    @Test func changingDeleteIntervalRestartsTheDeleteTimer() async throws {
        var fixture = try await TwoHourOldEntry(maxAge: .seconds(3_600), deleteInterval: .seconds(300))

        // Given the timer due at 5 min, when the interval becomes 10 min at 2 min
        await fixture.harness.clock.advance(by: .seconds(120))
        fixture.update { $0.deleteInterval = .seconds(600) }
        // Then nothing is deleted at 5 or 10 min
        await fixture.harness.clock.advance(by: .seconds(480))
        #expect(await fixture.nextEventAfterSavingAMarker() == .saved(1, .manual))
        // But at 12 min
        await fixture.harness.clock.advance(by: .seconds(120))
        #expect(await fixture.events.next() == .deleted(1))
        #expect(try fixture.harness.messages() == ["marker"])
        await fixture.client.shutdown()
    }

    // MARK: - Bounds, shutdown, restart

    @Test func entriesPastTheBufferLimitAreDroppedAndCounted() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(Self.manual, bufferLimit: 5)
        for index in 0..<8 { logger.info("entry \(index)") }

        #expect(persister.droppedEntries == 3)
        #expect(persister.pendingEntries == 5)
        await persister.save()
        try await client.flush()
        #expect(try harness.messages() == (0..<5).map { "entry \($0)" })
        await client.shutdown()
    }

    @Test func clientShutdownSavesPendingEntriesAndLaterOnesAreDropped() async throws {
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(Self.manual)
        logger.warning("before")

        await client.shutdown()
        logger.warning("after")

        #expect(try harness.messages() == ["before"])
        #expect(persister.droppedEntries == 1)
        #expect(persister.pendingEntries == 0)
    }

    @Test func entriesSurviveARestartOfTheClient() async throws {
        let harness = LogHarness()
        // Given a first run that logs and shuts down with everything still buffered
        let first = try harness.client()
        let firstLogger = harness.logger(harness.persister(first, Self.manual))
        firstLogger.info("from the first run")
        firstLogger.error("failure in the first run")
        await first.shutdown()

        // When the app starts again and logs more
        let second = try harness.client()
        second.start()
        let persister = harness.persister(second, Self.manual)
        harness.logger(persister).info("from the second run")
        await persister.save()
        try await second.flush()

        // Then the first run's entries are still stored, in their namespaces
        let rows = try harness.rows()
        #expect(rows.map { $0["namespace"] as String } == ["log-local", "log", "log-local"])
        #expect(try harness.messages() == ["from the first run", "failure in the first run", "from the second run"])
        await second.shutdown()
    }

    #if canImport(Glibc) || canImport(Darwin)
    @Test func sigtermSavesPendingEntries() async throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = harness.persister(client, Self.manual)
        var events = persister.events.makeAsyncIterator()
        await persister.saveOnSIGTERM(thenTerminate: false)
        harness.logger(persister).warning("about to be killed")

        kill(getpid(), SIGTERM)

        #expect(await events.nextSave() == .saved(1, .signal))
        await client.shutdown()
        #expect(try harness.messages() == ["about to be killed"])
    }
    #endif
}
