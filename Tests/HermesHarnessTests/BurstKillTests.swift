@testable import HermesHarness
import HermesWire
import Testing

/// When `hermes torture burst` kills its child.
struct BurstKillTests {
    @Test func evenRunsKillAfterTheLastSendAndOddRunsInTheMiddleOfTheBurst() {
        var random = SplitMix64(seed: 7)
        let kills = (0..<6).map { BurstKill.draw(run: $0, records: 1_000, &random) }

        #expect(kills.map(\.name) == ["after_burst", "mid_burst", "after_burst", "mid_burst", "after_burst", "mid_burst"])
        #expect(kills[0].childArguments.isEmpty)
        for kill in kills where kill.name == "mid_burst" {
            guard case .midBurst(let sends) = kill.moment else { Issue.record("not mid-burst: \(kill)"); continue }
            #expect((1...999).contains(sends))
            #expect(kill.childArguments == ["--announce-after", String(sends)])
        }
    }

    @Test func theSameSeedReplaysTheSameMoments() {
        var first = SplitMix64(seed: 2026)
        var second = SplitMix64(seed: 2026)
        #expect((0..<8).map { BurstKill.draw(run: $0, records: 20_000, &first) } == (0..<8).map { BurstKill.draw(run: $0, records: 20_000, &second) })
    }

    @Test func aBurstOfOneRecordIsKilledAfterItsSend() {
        var random = SplitMix64(seed: 1)
        #expect(BurstKill.draw(run: 1, records: 1, &random).moment == .afterLastSend)
    }
}
