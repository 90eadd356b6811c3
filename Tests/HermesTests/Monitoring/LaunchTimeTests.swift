import Foundation
@testable import Hermes
import Testing

struct LaunchTimeTests {
    /// A `/proc/self/stat` line whose command name holds a space and a parenthesis; field 22
    /// (the start time) is 1,000 clock ticks.
    static let stat =
        "4242 (my app) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 5 3 0 0 20 0 4 0 1000 123456789 1234 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"

    @Test func theLaunchIsTheUptimeLessTheProcessStart() {
        // Started 10 s after boot (1,000 ticks at 100 per second), now 12.345 s after boot
        #expect(LaunchTime.milliseconds(stat: Self.stat, uptime: "12.345 40.00\n", ticksPerSecond: 100) == 2_345)
    }

    @Test func unreadableTextGivesNoFigure() {
        #expect(LaunchTime.milliseconds(stat: "4242 (app S 1", uptime: "12.0 1.0", ticksPerSecond: 100) == nil)
        #expect(LaunchTime.milliseconds(stat: Self.stat, uptime: "soon", ticksPerSecond: 100) == nil)
        #expect(LaunchTime.milliseconds(stat: Self.stat, uptime: "12.0 1.0", ticksPerSecond: 0) == nil)
        #expect(LaunchTime.milliseconds(stat: Self.stat, uptime: "nan 1.0", ticksPerSecond: 100) == nil)
        #expect(
            LaunchTime.milliseconds(
                stat: Self.stat.replacingOccurrences(of: " 1000 ", with: " 9223372036854775807 "), uptime: "12.0 1.0", ticksPerSecond: 100) == nil)
    }

    #if os(Linux)
    @Test func thisProcessStartedInThePast() throws {
        let milliseconds = try #require(LaunchTime.sinceProcessStart())
        #expect(milliseconds >= 0)
    }
    #endif
}
