extension CollectorStorage {
    /// Reads every event matching `query` page by page, oldest first, up to `cap` events, and
    /// hands each to `visit`.
    /// - Returns: whether the cap stopped the scan before the end.
    func scan(_ query: EventQuery, cap: Int, _ visit: (StoredEvent) -> Void) async throws(CollectorError) -> Bool {
        var query = query
        query.limit = min(EventQuery.maximumLimit, cap)
        var seen = 0
        while true {
            let page = try await withStorageErrors("read records") { try await events(query) }
            for event in page {
                visit(event)
            }
            seen += page.count
            guard let next = page.next else { return false }
            if seen >= cap { return true }
            query.after = next
        }
    }
}
