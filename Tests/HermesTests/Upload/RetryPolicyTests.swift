@testable import Hermes
import Testing

struct RetryPolicyTests {
    let policy = RetryPolicy()

    @Test func theBackoffDoublesWithEachFailureUpToTheCap() {
        let delays = (1...10).map { policy.delay(failures: $0, retryAfter: nil, jitter: 1) }

        #expect(delays == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map { Duration.seconds($0) })
        #expect(policy.delay(failures: 1_000, retryAfter: nil, jitter: 1) == .seconds(300))
    }

    @Test func jitterKeepsTheWaitBetweenHalfAndAllOfTheBackoff() {
        for failures in [1, 4, 9, 20] {
            let backoff = policy.delay(failures: failures, retryAfter: nil, jitter: 1)
            #expect(policy.delay(failures: failures, retryAfter: nil, jitter: 0) == backoff / 2)
            let highest = policy.delay(failures: failures, retryAfter: nil, jitter: 0.999_999)
            #expect(highest < backoff && highest > backoff * 0.99)
            #expect(policy.delay(failures: failures, retryAfter: nil, jitter: 0.5) == backoff * 0.75)
        }
    }

    @Test func retryAfterWinsOverTheBackoffWithinTheCap() {
        #expect(policy.delay(failures: 6, retryAfter: .seconds(7), jitter: 0.3) == .seconds(7))
        #expect(policy.delay(failures: 1, retryAfter: .seconds(90), jitter: 0) == .seconds(90))
        #expect(policy.delay(failures: 1, retryAfter: .seconds(86_400), jitter: 0) == .seconds(300))
    }

    @Test func retryAfterIsReadInSecondsOnly() {
        #expect(RetryPolicy.retryAfter("7") == .seconds(7))
        #expect(RetryPolicy.retryAfter(" 12 ") == .seconds(12))
        #expect(RetryPolicy.retryAfter("0") == .zero)
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(RetryPolicy.retryAfter("-1") == nil)
        #expect(RetryPolicy.retryAfter(nil) == nil)
    }
}
