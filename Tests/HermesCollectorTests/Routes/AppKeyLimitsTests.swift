@testable import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What each app key may do: its token bucket (rate, burst, the wait it names, one key's bucket apart
/// from another's) and the namespaces it may write.
struct AppKeyLimitsTests {
    @Test func aKeyMayBurstThenWaitsForItsRate() throws {
        let limiter = AppKeyRateLimiter(rate: 2, burstSeconds: 2)
        // A full bucket: 4 requests at once, the fifth refused for half a second (rounded up to 1 s)
        for _ in 0..<4 { try limiter.take("ios", now: 0) }
        let refusal = #expect(throws: CollectorError.self) { try limiter.take("ios", now: 0) }
        #expect(refusal?.code == .rateLimited)
        #expect(refusal?.retryAfterSeconds == 1)
        // Another key has its own bucket
        try limiter.take("android", now: 0)
        // 500 ms later one request has come back, and only one
        try limiter.take("ios", now: 500)
        #expect(throws: CollectorError.self) { try limiter.take("ios", now: 500) }
        // A long pause refills the bucket to its burst, not beyond
        for _ in 0..<4 { try limiter.take("ios", now: 60_000) }
        #expect(throws: CollectorError.self) { try limiter.take("ios", now: 60_000) }
    }

    @Test func theWaitNamesTheSecondsUntilARequestIsBack() {
        let limiter = AppKeyRateLimiter(rate: 0.25, burstSeconds: 4)
        #expect(throws: Never.self) { try limiter.take("k", now: 0) }
        let refusal = #expect(throws: CollectorError.self) { try limiter.take("k", now: 1_000) }
        // 0.25 of a request back after 1 s: 3 more seconds
        #expect(refusal?.retryAfterSeconds == 3)
    }

    @Test func uploadsPastTheRateAre429WithRetryAfterAndCountedByKeyID() async throws {
        var fixture = try CollectorFixture()
        let clock = Locked<Int64>(1_000_000)
        fixture.configuration.wallClock = { clock.withLock { $0 } }
        fixture.configuration.appKeyRequestsPerSecond = 1
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let bodies = try (0..<7).map { try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("r\($0)")])) }
        try await fixture.test { client throws in
            // Five seconds' worth at once
            for body in bodies[..<5] { #expect(try await client.upload(body, kind: .meta).status == .ok) }
            let refused = try await client.upload(bodies[5], kind: .meta)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(try refused.json()["error"] == "rateLimited")
            clock.withLock { $0 += 1_000 }
            #expect(try await client.upload(bodies[6], kind: .meta).status == .ok)
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["r0", "r1", "r2", "r3", "r4", "r6"])
        let keyID = AppKeyID.of(CollectorFixture.appKey)
        #expect(keyID.count == 8 && !keyID.contains(CollectorFixture.appKey))
        #expect(fixture.metrics.prometheusText().contains("hermes_collector_rate_limited_total{key_id=\"\(keyID)\"} 1"))
        #expect(fixture.metrics.snapshot.rejects["rateLimited"] == 1)
    }

    @Test func aKeyBoundToNamespacesWritesOnlyThose() async throws {
        var fixture = try CollectorFixture()
        fixture.configuration.appKeys.insert("pay-key")
        fixture.configuration.appKeyNamespaces = ["pay-key": ["pay", "hermes"]]
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let shop = try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("s1")]))
        let pay = try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("p1", namespace: "pay")]))
        try await fixture.test { client throws in
            let refused = try await client.upload(shop, kind: .meta, appKey: "pay-key")
            #expect(refused.status == .forbidden)
            #expect(
                try refused.json() == ["error": "namespaceNotAllowed", "reason": "this app key may not write namespace shop", "scope": "request"])
            #expect(try await client.upload(pay, kind: .meta, namespace: "pay", appKey: "pay-key").status == .ok)
            // A key bound to nothing writes anywhere
            #expect(try await client.upload(shop, kind: .meta).status == .ok)
        }
        #expect(try await fixture.storedEvents().map(\.reportID) == ["p1", "s1"])
    }
}
