@testable import Hermes
import HermesWire
import Testing

/// The pure core of the `sdkHealth` records: each loss is reported once, by the first report
/// whose record was stored.
struct HealthTallyTests {
    @Test func aReportSumsTheNamespacesAndTheNextCarriesOnlyWhatWasLostSince() {
        // Given losses in two namespaces, and a first report stored at 60 s
        var tally = HealthTally(since: .zero)
        let first = tally.draft(losses: ["JZ": [.evicted: 3, .rejected: 1], "hermes": [.evicted: 2]], queueDepth: 7, now: .seconds(60))
        tally.stored(first)

        // When more is lost and the next report is drafted at 90 s
        let second = tally.draft(
            losses: ["JZ": [.evicted: 3, .rejected: 4], "hermes": [.evicted: 2, .appVersionCleared: 5]], queueDepth: nil, now: .seconds(90))

        // Then the first carries everything, the second only the new losses and its own period
        #expect(first.lost == [.evicted: 5, .rejected: 1])
        #expect(first.meta == ["lost": ["evicted": 5, "rejected": 1], "lostTotal": 6, "queueDepth": 7, "periodMs": 60_000])
        #expect(second.lost == [.rejected: 3, .appVersionCleared: 5])
        #expect(second.meta == ["lost": ["rejected": 3, "app_version_cleared": 5], "lostTotal": 8, "periodMs": 30_000])
    }

    @Test func aReportNotStoredLeavesItsLossesAndItsPeriodToTheNext() {
        // Given a report drafted at 10 s whose record could not be stored
        var tally = HealthTally(since: .zero)
        _ = tally.draft(losses: ["JZ": [.oversize: 2]], queueDepth: 0, now: .seconds(10))

        // When the next is drafted at 20 s after one more loss, and stored
        let next = tally.draft(losses: ["JZ": [.oversize: 3]], queueDepth: 0, now: .seconds(20))
        tally.stored(next)

        // Then it carries all three losses over the whole 20 s, and nothing is left after it
        #expect(next.lost == [.oversize: 3] && next.period == .seconds(20))
        let after = tally.draft(losses: ["JZ": [.oversize: 3]], queueDepth: 0, now: .seconds(25))
        #expect(after.lost.isEmpty && after.lostTotal == 0 && after.period == .seconds(5))
        #expect(after.meta["lost"] == .object([:]))
    }
}
