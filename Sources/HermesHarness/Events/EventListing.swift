package import Foundation
import HermesCollector
package import HermesWire

/// `hermes events`: a collector's records matching a filter, oldest first, page after page
/// until none is left or `limit` are written; with ``follow``, then the records that arrive,
/// polled every ``pollInterval`` (``ArrivalFollower``) until `limit` or cancellation.
package struct EventListing: Sendable {
    /// How records are written.
    package enum Format: String, Sendable, CaseIterable {
        /// As `GET /v1/events/export?format=ndjson` writes them.
        case ndjson
        /// As `GET /v1/events/export?format=csv` writes them.
        case csv
        /// A fixed-width summary for a terminal (``EventTableLine``).
        case table
    }

    /// The records one arrivals poll asks for.
    package static let pollLimit = 1_000

    package var client: EventsClient
    package var filter: EventFilter
    package var format: Format
    /// The most records to write; `nil` for all.
    package var limit: Int?
    package var follow: Bool
    package var pollInterval: Duration = .seconds(1)

    package init(client: EventsClient, filter: EventFilter, format: Format, limit: Int?, follow: Bool) {
        self.client = client
        self.filter = filter
        self.format = format
        self.limit = limit
        self.follow = follow
    }

    /// Writes the header, then each record's line as it is read.
    /// - Parameter write: takes text to print: whole lines, a page's at once.
    /// - Returns: how many records were written.
    /// - Throws: ``RunFailure`` when the collector refuses or does not answer.
    @discardableResult
    package func run(write: (String) -> Void) async throws -> Int {
        var remaining = limit ?? Int.max
        let start = follow ? try await client.arrivals(filter, receivedSince: nil, limit: 1).now : 0
        var follower = ArrivalFollower(start: start)
        write(header)
        var cursor: String?
        repeat {
            let page = try await client.page(filter, cursor: cursor, limit: min(remaining, EventsClient.pageLimit))
            let events = page.events.prefix(remaining)
            write(try events.map(line).joined())
            remaining -= events.count
            if follow { follower.printed(Array(events)) }
            cursor = page.next
        } while cursor != nil && remaining > 0
        while follow, remaining > 0, !Task.isCancelled {
            let poll = try await client.arrivals(filter, receivedSince: follower.receivedSince, limit: Self.pollLimit)
            let events = follower.accept(poll.events, full: poll.events.count == Self.pollLimit).prefix(remaining)
            if !events.isEmpty { write(try events.map(line).joined()) }
            remaining -= events.count
            if poll.events.count < Self.pollLimit { try await Task.sleep(for: pollInterval) }
        }
        return (limit ?? Int.max) - remaining
    }

    private var header: String {
        switch format {
        case .ndjson: EventExportFormat.ndjson.header
        case .csv: EventExportFormat.csv.header
        case .table: EventTableLine.header
        }
    }

    private func line(_ event: JSONValue) throws -> String {
        switch format {
        case .ndjson: try EventExportFormat.ndjson.line(event)
        case .csv: try EventExportFormat.csv.line(event)
        case .table: EventTableLine.line(event)
        }
    }
}
