@testable import HermesLogging
import Testing

struct ControlChangeTests {
    typealias Controls = HermesLogHandler.Controls

    private func change(_ edit: (inout Controls) -> Void, from old: Controls = .default, unsaved: Int = 0) -> ControlChange {
        var new = old
        edit(&new)
        return ControlChange(from: old, to: new, unsaved: unsaved)
    }

    @Test func theSameControlsChangeNothing() {
        #expect(change { _ in } == ControlChange(from: .default, to: .default, unsaved: 0))
        let nothing = change { _ in }
        #expect(!nothing.saveNow && !nothing.deleteNow && nothing.saveTimer == .keep && nothing.deleteTimer == .keep)
    }

    @Test func aThresholdAtOrBelowTheBufferedCountSavesNow() {
        #expect(change({ $0.saveThreshold = 10 }, unsaved: 10).saveNow)
        #expect(!change({ $0.saveThreshold = 10 }, unsaved: 9).saveNow)
        #expect(!change({ $0.saveThreshold = 0 }, unsaved: 9).saveNow)
    }

    @Test func aChangedSaveIntervalRestartsOrStopsTheSaveTimer() {
        #expect(change { $0.saveInterval = .seconds(5) }.saveTimer == .restart)
        #expect(change { $0.saveInterval = .zero }.saveTimer == .stop)
        #expect(change({ $0.saveInterval = .seconds(5) }, from: Controls(saveInterval: .zero)).saveTimer == .restart)
    }

    @Test func maxAgeFollowsTheDatabaseLoggerSetter() {
        let lowered = change { $0.maxAge = .seconds(60) }
        #expect(lowered.deleteNow && lowered.deleteTimer == .restart)
        let raised = change { $0.maxAge = .seconds(30 * 86_400) }
        #expect(!raised.deleteNow && raised.deleteTimer == .keep)
        let off = change { $0.maxAge = .zero }
        #expect(!off.deleteNow && off.deleteTimer == .stop)
        let on = change({ $0.maxAge = .seconds(60) }, from: Controls(maxAge: .zero))
        #expect(on.deleteNow && on.deleteTimer == .restart)
    }

    @Test func maxAgeOnWithoutADeleteIntervalDeletesOnceAndStartsNoTimer() {
        let on = change({ $0.maxAge = .seconds(60) }, from: Controls(maxAge: .zero, deleteInterval: .zero))
        #expect(on.deleteNow && on.deleteTimer == .stop)
    }

    @Test func aChangedDeleteIntervalRestartsOrStopsTheDeleteTimer() {
        #expect(change { $0.deleteInterval = .seconds(60) }.deleteTimer == .restart)
        #expect(change { $0.deleteInterval = .zero }.deleteTimer == .stop)
        #expect(change({ $0.deleteInterval = .seconds(60) }, from: Controls(maxAge: .zero)).deleteTimer == .stop)
    }
}
