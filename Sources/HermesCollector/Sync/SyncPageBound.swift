/// Where a catch-up answer ends: after about ``SyncRules/pageRecords`` records and at most about
/// ``maximumBytes`` of record attributes, never inside a revision (a revision's records travel
/// together), and always after at least one revision, so that a device moves on.
package enum SyncPageBound {
    /// The attribute bytes one answer carries before it says `hasMore`, unless its first
    /// revision alone is larger: 8 MiB, so that an answer stays within about 10 MiB of JSON.
    package static let maximumBytes = 8 << 20
    /// What a record adds to an answer besides its attributes (type, id, revision, framing).
    package static let recordOverhead = 64

    /// The last revision of the page.
    /// - Parameters:
    ///   - records: the revision and attribute bytes of the records after the device's
    ///     position, in revision order, at most `limit` of them.
    ///   - limit: about how many records a page holds.
    ///   - current: the store's revision now, the end when fewer than `limit` records follow.
    package static func end(of records: [(revision: Int64, bytes: Int)], limit: Int, current: Int64) -> Int64 {
        var total = 0
        for (index, record) in records.enumerated() {
            total += record.bytes + recordOverhead
            if total > maximumBytes, index > 0 { return records[index - 1].revision }
        }
        return records.count >= limit ? records[records.count - 1].revision : current
    }
}
