/// One page of stored events, oldest `createTime` first: at most the query's limit, and at most
/// ``EventQuery/maximumPageBytes`` of stored meta and payload (always at least one event, so
/// paging moves on), with the cursor of the page after it when more match.
///
/// ```swift
/// var query = EventQuery(namespace: "JZ")
/// repeat {
///     let page = try await storage.events(query)
///     for event in page { print(event.reportID) }
///     query.after = page.next
/// } while query.after != nil
/// ```
public struct EventPage: RandomAccessCollection, Sendable {
    /// The events of the page.
    public var events: [StoredEvent]
    /// Where the next page starts, or `nil` when no more events match.
    public var next: EventCursor?

    /// Creates a page.
    public init(events: [StoredEvent], next: EventCursor?) {
        self.events = events
        self.next = next
    }

    /// A page of `events`, cut to the first `count` of them, as a store reads it: the sizes it
    /// measured for up to one event more than the query's limit decide how many fit.
    /// - Parameters:
    ///   - sizes: the stored bytes (meta plus payload) of the matching events in order, read for
    ///     one more than the limit.
    ///   - limit: the query's limit.
    /// - Returns: how many events the page holds, and whether more match after them.
    public static func cut(sizes: [Int], limit: Int) -> (count: Int, hasMore: Bool) {
        var count = 0
        var bytes = 0
        for size in sizes.prefix(limit) {
            if count > 0, bytes + size > EventQuery.maximumPageBytes { break }
            bytes += size
            count += 1
        }
        return (count, sizes.count > count)
    }

    public var startIndex: Int { events.startIndex }
    public var endIndex: Int { events.endIndex }
    public subscript(position: Int) -> StoredEvent { events[position] }
}
