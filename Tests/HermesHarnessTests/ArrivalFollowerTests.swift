@testable import HermesHarness
import HermesWire
import Testing

/// What `hermes events --follow` prints of each poll.
struct ArrivalFollowerTests {
    static func event(_ id: String, at receivedAt: Int64, namespace: String = "JZ") -> JSONValue {
        ["namespace": .string(namespace), "reportID": .string(id), "receivedAt": .int(receivedAt)]
    }

    @Test func aRecordIsPrintedOnceAndPollsLookBackByTheMargin() {
        // Given a follower that started at 100,000, after a listing that printed a
        var follower = ArrivalFollower(start: 100_000)
        #expect(follower.receivedSince == 95_000)
        follower.printed([Self.event("a", at: 99_000)])
        // When polls bring a again, then b, then b and c (c with the same report id in another namespace)
        #expect(follower.accept([Self.event("a", at: 99_000)], full: false).isEmpty)
        #expect(follower.accept([Self.event("a", at: 99_000), Self.event("b", at: 103_000)], full: false) == [Self.event("b", at: 103_000)])
        // Then each is printed once, and the next poll looks back 5 s before the newest arrival
        #expect(follower.receivedSince == 98_000)
        let third = follower.accept([Self.event("b", at: 103_000), Self.event("b", at: 104_000, namespace: "KX")], full: false)
        #expect(third == [Self.event("b", at: 104_000, namespace: "KX")])
        #expect(follower.receivedSince == 99_000)
    }

    @Test func aFullPollMovesOnToItsLastArrival() {
        var follower = ArrivalFollower(start: 100_000)
        _ = follower.accept([Self.event("a", at: 100_000), Self.event("b", at: 100_400)], full: true)
        #expect(follower.receivedSince == 100_400)
        // A later poll never moves the start back
        _ = follower.accept([], full: false)
        #expect(follower.receivedSince == 100_400)
    }

    @Test func recordsOlderThanTheMarginAreNotPrinted() {
        var follower = ArrivalFollower(start: 100_000)
        #expect(follower.accept([Self.event("old", at: 94_999), Self.event("new", at: 95_000)], full: false) == [Self.event("new", at: 95_000)])
    }
}
