import Clocks
@testable import Hermes
import Testing

struct MonotonicClockTests {
    @Test func aSleepToAnInstantTheClockHasReachedReturnsWithoutAnotherAdvance() async throws {
        // Given a test clock already advanced to 3 s
        let clock = TestClock<Duration>()
        let monotonic = MonotonicClock(clock)
        await clock.advance(by: .seconds(3))

        // When timers scheduled for 3 s and for 1 s only now go to sleep
        try await monotonic.sleep(until: .seconds(3))
        try await monotonic.sleep(until: .seconds(1))

        // Then they return at once (a test clock alone would wait for its next advance)
        #expect(monotonic.now() == .seconds(3))
    }

    @Test func aSleepToAFutureInstantReturnsWhenTheClockGetsThere() async throws {
        let clock = TestClock<Duration>()
        let monotonic = MonotonicClock(clock)
        let sleeper = Task {
            try await monotonic.sleep(until: .seconds(5))
            return monotonic.now()
        }

        await clock.advance(by: .seconds(5))

        #expect(try await sleeper.value == .seconds(5))
    }

    @Test func aCancelledSleepThrowsEvenWhenItsDeadlineHasPassed() async {
        let clock = TestClock<Duration>()
        let monotonic = MonotonicClock(clock)
        await clock.advance(by: .seconds(3))

        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await monotonic.sleep(until: .seconds(1))
        }

        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
