package import HermesWire

/// What `hermes events --follow` prints of each poll of `GET /v1/events/arrivals`: the records
/// not printed yet. A pure state machine: it asks for arrivals since the newest it saw, less
/// ``margin`` for uploads received earlier that committed later, and forgets the records it
/// printed once they fall out of that margin.
package struct ArrivalFollower: Sendable {
    /// How far back each poll looks before the newest arrival seen, in ms.
    package static let margin: Int64 = 5_000

    /// The `receivedSince` of the next poll.
    package private(set) var receivedSince: Int64
    private var newest: Int64
    /// The records printed within the margin: `namespace` NUL `reportID` (unique in a store), by arrival.
    private var seen: [String: Int64] = [:]

    /// Follows arrivals from `start`, the collector's clock when the listing began.
    package init(start: Int64) {
        newest = start
        receivedSince = start - Self.margin
    }

    /// Takes records already printed (the listing before the follow), so that they are not
    /// printed again.
    package mutating func printed(_ events: [JSONValue]) {
        _ = accept(events, full: false)
    }

    /// The records of one poll to print, oldest arrival first.
    /// - Parameters:
    ///   - events: the poll's answer.
    ///   - full: whether the poll brought as many records as it asked for: then the next one
    ///     starts at its last arrival, so that a burst larger than a poll is not read again and again.
    package mutating func accept(_ events: [JSONValue], full: Bool) -> [JSONValue] {
        var new: [JSONValue] = []
        for event in events {
            let receivedAt = event["receivedAt"]?.intValue ?? 0
            guard receivedAt >= newest - Self.margin else { continue }
            let key = (event["namespace"]?.stringValue ?? "") + "\u{0}" + (event["reportID"]?.stringValue ?? "")
            guard seen[key] == nil else { continue }
            seen[key] = receivedAt
            newest = max(newest, receivedAt)
            new.append(event)
        }
        seen = seen.filter { $0.value >= newest - Self.margin }
        let last = events.last?["receivedAt"]?.intValue ?? newest
        receivedSince = full ? max(receivedSince, last) : max(receivedSince, newest - Self.margin)
        return new
    }
}
