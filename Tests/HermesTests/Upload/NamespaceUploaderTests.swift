@testable import Hermes
import HermesWire
import Testing

/// The pause after a refusal, as the uploader decides it from `now`: no clock, no network.
struct NamespaceUploaderTests {
    static let unauthorized = ResponseAction.Refusal(reason: .unauthorized, status: 401, code: "unauthorized", message: "no such app key")

    /// A round that ends as told, having made `requests` requests.
    static func round(_ wait: UploadRound.Wait?, requests: Int = 1) -> @Sendable (BatchSize) async -> UploadRound.Result {
        { batchSize in
            UploadRound.Result(summary: UploadSummary(namespace: "JZ", requests: requests), batchSize: batchSize, wait: wait)
        }
    }

    final class Now: Sendable {
        private let value = Locked(Duration.zero)
        func set(_ duration: Duration) { value.withLock { $0 = duration } }
        var read: @Sendable () -> Duration { { self.value.withLock { $0 } } }
    }

    @Test func eachRefusalInARowPausesTwiceAsLongUpToAnHour() async {
        // Given a namespace the collector keeps refusing
        let uploader = NamespaceUploader()
        let now = Now()
        var delays: [Duration] = []
        var counts: [Int] = []

        // When each pause runs out and the next automatic round is refused again
        for _ in 0..<8 {
            guard
                case .ran(_, let retryAt?, _, .paused(_, let count, let delay)?) =
                    await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(.pause(Self.unauthorized)))
            else {
                Issue.record("expected a paused round")
                return
            }
            delays.append(delay)
            counts.append(count)
            #expect(retryAt == now.read() + delay)
            now.set(retryAt)
        }

        // Then the pause doubles from a minute to the hour, and counts the refusals
        #expect(delays == [60, 120, 240, 480, 960, 1_920, 3_600, 3_600].map { Duration.seconds($0) })
        #expect(counts == Array(1...8))
    }

    @Test func automaticRoundsWaitForThePauseAndAnExplicitUploadTriesAtOnce() async {
        // Given a namespace paused for 60 s at time 0
        let uploader = NamespaceUploader()
        let now = Now()
        _ = await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(.pause(Self.unauthorized)))

        // When triggers come at 59 s (automatic), at 59 s (explicit) and at 60 s + 120 s (automatic)
        now.set(.seconds(59))
        let early = await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(nil))
        let explicit = await uploader.run(force: true, jitter: 1, now: now.read, round: Self.round(.pause(Self.unauthorized)))
        now.set(.seconds(59 + 119))
        let stillPaused = await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(nil))
        now.set(.seconds(59 + 120))
        let resumed = await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(nil))

        // Then the automatic ones wait, the explicit one runs (its refusal doubles the pause),
        // and the first answer after the pause lifts it
        guard case .skipped = early, case .skipped = stillPaused else {
            Issue.record("expected automatic rounds to wait")
            return
        }
        guard case .ran(_, _, _, .paused(_, 2, .seconds(120))?) = explicit else {
            Issue.record("expected the explicit upload to run and be refused, got \(explicit)")
            return
        }
        guard case .ran(_, nil, _, .lifted?) = resumed else {
            Issue.record("expected the pause to be lifted, got \(resumed)")
            return
        }
    }

    @Test func aRoundThatReachesNoCollectorLeavesThePauseAsItIs() async {
        let uploader = NamespaceUploader()
        let now = Now()
        _ = await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(.pause(Self.unauthorized)))

        // An explicit upload while offline (no request) neither lifts nor extends the pause
        let offline = await uploader.run(force: true, jitter: 1, now: now.read, round: Self.round(nil, requests: 0))
        now.set(.seconds(30))
        let automatic = await uploader.run(force: false, jitter: 1, now: now.read, round: Self.round(nil))

        guard case .ran(_, nil, _, nil) = offline, case .skipped = automatic else {
            Issue.record("expected the pause to stand: \(offline), \(automatic)")
            return
        }
    }

    @Test func liftingThePauseLetsTheNextAutomaticRoundRunButKeepsAFailureBackoff() async {
        // Given one namespace paused and another backing off after a 503
        let paused = NamespaceUploader()
        let failing = NamespaceUploader()
        let now = Now()
        _ = await paused.run(force: false, jitter: 1, now: now.read, round: Self.round(.pause(Self.unauthorized)))
        _ = await failing.run(force: false, jitter: 1, now: now.read, round: Self.round(.retry(after: .seconds(30))))

        // When a configuration refresh lifts pauses
        let wasPaused = await paused.liftPause()
        let wasFailing = await failing.liftPause()

        // Then the paused one runs at once; the failing one still waits
        #expect(wasPaused && !wasFailing)
        guard case .ran = await paused.run(force: false, jitter: 1, now: now.read, round: Self.round(nil)),
            case .skipped = await failing.run(force: false, jitter: 1, now: now.read, round: Self.round(nil))
        else {
            Issue.record("expected the lifted namespace to run and the failing one to wait")
            return
        }
    }
}
