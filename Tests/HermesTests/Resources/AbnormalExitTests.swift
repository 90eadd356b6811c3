import Foundation
@testable import Hermes
import HermesWire
import Testing

/// The rule that calls a previous run killed, and the records a client makes of it.
struct AbnormalExitTests {
    static let killed = RunMarker(
        pid: 41, startedAt: 1_000, appVersion: "1.2.0", sessionID: "s-1", lastSeenAt: 61_000, residentBytes: 300_000_000, foreground: true,
        cleanExit: false)

    static func meta(_ previous: RunMarker?, crashed: Set<Int64> = [], version: String = "1.2.0", backgroundIsNormal: Bool = false)
        -> [String: JSONValue]?
    {
        AbnormalExit.meta(
            previous: previous, crashedPIDs: crashed, currentPID: 42, appVersion: version, now: 100_000, backgroundEndsAreNormal: backgroundIsNormal)
    }

    @Test func aRunThatEndedWithoutShutdownOrCrashReportIsReportedWithWhatWasLastKnown() {
        #expect(
            Self.meta(Self.killed) == [
                "previousPid": 41, "previousSessionId": "s-1", "foreground": true, "lastResidentBytes": 300_000_000,
                "msSinceLastSample": 39_000, "runDurationMs": 60_000,
            ])
    }

    @Test func cleanExitsCrashesThisProcessUpdatesAndBackgroundEndsOnMobileAreNotReported() {
        var clean = Self.killed
        clean.cleanExit = true
        var same = Self.killed
        same.pid = 42
        var background = Self.killed
        background.foreground = false
        #expect(Self.meta(nil) == nil && Self.meta(clean) == nil && Self.meta(same) == nil)
        #expect(Self.meta(Self.killed, crashed: [41]) == nil)
        #expect(Self.meta(Self.killed, version: "1.3.0") == nil)
        #expect(Self.meta(background, backgroundIsNormal: true) == nil)
        #expect(Self.meta(background, backgroundIsNormal: false)?["foreground"] == false)
    }
}
