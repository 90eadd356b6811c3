/// Where a catch-up answer ends: after about ``SyncRules/pageRecords`` records and at most about
/// ``maximumBytes`` of record attributes, never inside a revision (a revision's records travel
/// together), and always after at least one revision, so that a device moves on.
///
/// It is told the records after the device's position one by one, in revision order, and says
/// of each whether it belongs to the page, so that a store can read the page in one pass and
/// stop at its end.
package struct SyncPageBound {
    /// The attribute bytes one answer carries before it says `hasMore`, unless its first
    /// revision alone is larger: 8 MiB, so that an answer stays within about 10 MiB of JSON.
    package static let maximumBytes = 8 << 20
    /// What a record adds to an answer besides its attributes (type, id, revision, framing).
    package static let recordOverhead = 64

    /// About how many records a page holds.
    private let limit: Int
    private var records = 0
    private var bytes = 0
    private var previous: Int64?
    /// The page's last revision, once a record decided it.
    private var last: Int64?

    /// - Parameter limit: about how many records a page holds.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Counts the next record.
    /// - Parameters:
    ///   - revision: the record's revision, not below the one before.
    ///   - bytes: its attributes' bytes.
    /// - Returns: whether it belongs to the page; once a record does not, none after it does.
    package mutating func admit(revision: Int64, bytes recordBytes: Int) -> Bool {
        if let last { return revision <= last }
        bytes += recordBytes + Self.recordOverhead
        if bytes > Self.maximumBytes, let previous {
            last = previous
            return revision <= previous
        }
        records += 1
        previous = revision
        if records >= limit { last = revision }
        return true
    }

    /// The page's last revision: the one its records decided, or `current`, the store's
    /// revision, when they ran out first.
    package func end(current: Int64) -> Int64 {
        last ?? current
    }

    /// The last revision of the page.
    /// - Parameters:
    ///   - records: the revision and attribute bytes of the records after the device's
    ///     position, in revision order, at most `limit` of them.
    ///   - limit: about how many records a page holds.
    ///   - current: the store's revision now, the end when fewer than `limit` records follow.
    package static func end(of records: [(revision: Int64, bytes: Int)], limit: Int, current: Int64) -> Int64 {
        var bound = SyncPageBound(limit: limit)
        for record in records {
            guard bound.admit(revision: record.revision, bytes: record.bytes) else { break }
        }
        return bound.end(current: current)
    }
}
