import Crypto
import Foundation
import HermesCollector
import HermesWire
import Testing

struct WebhookDeliveryTests {
    /// The waits a delivery asked for, without waiting.
    final class Sleeps: Sendable {
        private let waits = Locked<[Duration]>([])
        var recorded: [Duration] { waits.withLock { $0 } }
        var sleep: WebhookDelivery.Sleep { { duration in self.waits.withLock { $0.append(duration) } } }
    }

    static let payload = AlertPayload(
        id: "firing-1", rule: AlertFixtures.rule(kind: .crashRate(threshold: 10, windowMinutes: 5)), state: .firing, value: 12,
        time: AlertFixtures.now)

    static func delivery(_ sleeps: Sleeps) -> WebhookDelivery {
        WebhookDelivery(wallClock: { AlertFixtures.now + 123 }, sleep: sleeps.sleep)
    }

    @Test func aPayloadIsPostedSignedToALocalReceiver() async throws {
        try await WebhookReceiver.with { receiver, url in
            let sleeps = Sleeps()
            let outcome = await Self.delivery(sleeps).deliver(Self.payload, to: url, secret: "s3cret")
            #expect(outcome == AlertDelivery(status: .delivered, attempts: 1, responseStatus: 200))
            let request = try #require(receiver.received.first)
            // The body, byte for byte, as the documentation shows it
            #expect(
                String(decoding: request.body, as: UTF8.self)
                    == #"{"console":"/console/alerts","id":"firing-1","kind":"crashRate","ruleId":"rule-1","ruleName":"Rule rule-1","#
                    + #""state":"firing","threshold":10,"time":1795400000000,"value":12,"windowMinutes":5}"#)
            // The signature, checked as a receiver would: HMAC-SHA256 of the body keyed with the secret's text
            let mac = HMAC<SHA256>.authenticationCode(for: request.body, using: SymmetricKey(data: Array("s3cret".utf8)))
            #expect(request.header("X-Hermes-Signature") == "sha256=" + mac.map { String(format: "%02x", $0) }.joined())
            #expect(request.header("X-Hermes-Delivery") == "firing-1")
            #expect(request.header("X-Hermes-Timestamp") == "1795400000")
            #expect(request.header("Content-Type") == "application/json")
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test func serverErrorsAndTooManyRequestsAreRetriedWithBackoff() async throws {
        try await WebhookReceiver.with(statuses: [500, 429, 502]) { receiver, url in
            let sleeps = Sleeps()
            let outcome = await Self.delivery(sleeps).deliver(Self.payload, to: url, secret: "s3cret")
            #expect(outcome == AlertDelivery(status: .delivered, attempts: 4, responseStatus: 200))
            #expect(sleeps.recorded == [.seconds(1), .seconds(2), .seconds(4)])
            // Every attempt carries the same delivery id and body
            #expect(Set(receiver.received.compactMap { $0.header("X-Hermes-Delivery") }) == ["firing-1"])
            #expect(Set(receiver.received.map(\.body)).count == 1)
        }
    }

    @Test func aDeliveryGivesUpAfterItsAttempts() async throws {
        try await WebhookReceiver.with(statuses: Array(repeating: 500, count: 6)) { receiver, url in
            let sleeps = Sleeps()
            let outcome = await Self.delivery(sleeps).deliver(Self.payload, to: url, secret: "s3cret")
            #expect(outcome == AlertDelivery(status: .failed, attempts: 5, lastError: "the webhook answered 500", responseStatus: 500))
            #expect(receiver.received.count == 5)
            #expect(sleeps.recorded == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        }
    }

    @Test func aClientErrorIsNotRetried() async throws {
        try await WebhookReceiver.with(statuses: [400]) { receiver, url in
            let sleeps = Sleeps()
            let outcome = await Self.delivery(sleeps).deliver(Self.payload, to: url, secret: "s3cret")
            #expect(outcome == AlertDelivery(status: .failed, attempts: 1, lastError: "the webhook answered 400", responseStatus: 400))
            #expect(receiver.received.count == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test func aNetworkErrorIsRetried() async throws {
        // Port 1 on the loopback: nothing listens there. (A port just freed can be taken by
        // another test's server in the meantime.)
        let url = "http://127.0.0.1:1/hook"
        let sleeps = Sleeps()
        let outcome = await Self.delivery(sleeps).deliver(Self.payload, to: url, secret: "s3cret")
        #expect(outcome.status == .failed)
        #expect(outcome.attempts == 5)
        #expect(outcome.responseStatus == nil)
        #expect(outcome.lastError?.hasPrefix("SocketTransportError(connectionRefused)") == true)
    }

    @Test func aTestIsSentOnceWithStateTest() async throws {
        try await WebhookReceiver.with(statuses: [500]) { receiver, url in
            let sleeps = Sleeps()
            let rule = AlertFixtures.rule(webhookURL: url)
            let outcome = await Self.delivery(sleeps).sendTest(rule: rule)
            #expect(outcome == AlertDelivery(status: .failed, attempts: 1, lastError: "the webhook answered 500", responseStatus: 500))
            let request = try #require(receiver.received.first)
            let payload = try AlertPayload(jsonBytes: request.body)
            #expect(payload.state == .test)
            #expect(payload.ruleID == rule.id)
            #expect(request.header("X-Hermes-Signature") == WebhookDelivery.signature(of: request.body, secret: rule.secret))
            #expect(
                await Self.delivery(sleeps).sendTest(rule: AlertFixtures.rule())
                    == AlertDelivery(status: .skipped, lastError: "the rule has no webhook URL"))
        }
    }
}
