@testable import Hermes
import Testing

struct TrafficWindowTests {
    static let start: Int64 = 1_763_000_000_000

    @Test func theWindowHoldsUntilExactly24HoursThenStartsAfresh() {
        let window = TrafficWindow(start: Self.start, usedBytes: 5_000)

        #expect(window.current(at: Self.start + TrafficWindow.length - 1) == window)
        #expect(window.current(at: Self.start + TrafficWindow.length) == TrafficWindow(start: Self.start + TrafficWindow.length, usedBytes: 0))
    }

    @Test func aWallClockGoingBackwardsStartsAFreshWindow() {
        let window = TrafficWindow(start: Self.start, usedBytes: 5_000)

        #expect(window.current(at: Self.start - 1) == TrafficWindow(start: Self.start - 1, usedBytes: 0))
    }

    @Test func sendingStopsOnceTheUsedBytesReachTheLimit() {
        #expect(TrafficWindow(start: Self.start, usedBytes: 2_047).allows(limitBytes: 2_048))
        #expect(!TrafficWindow(start: Self.start, usedBytes: 2_048).allows(limitBytes: 2_048))
        #expect(!TrafficWindow(start: Self.start, usedBytes: 9_000).allows(limitBytes: 2_048))
    }

    @Test func addedBytesAccumulateWithinTheWindowAndGoToTheNextOneAfterIt() {
        let window = TrafficWindow(start: Self.start, usedBytes: 0)
            .adding(300, at: Self.start + 10)
            .adding(200, at: Self.start + 20)

        #expect(window == TrafficWindow(start: Self.start, usedBytes: 500))
        #expect(window.adding(70, at: Self.start + TrafficWindow.length) == TrafficWindow(start: Self.start + TrafficWindow.length, usedBytes: 70))
    }
}
