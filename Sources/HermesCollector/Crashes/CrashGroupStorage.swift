/// A store that groups its crash records by ``CrashSignature`` and answers the console's
/// questions about the groups. Every ``CollectorStorage`` is one.
///
/// The `appCrash` records of the `hermes` namespace are grouped after they are stored, by
/// ``groupCrashes(limit:)`` steps (the collector runs them every 2 seconds): each step reads records
/// not grouped yet, computes their signatures, and writes the groups, one membership row per
/// record and its progress in one transaction.
///
/// Contract for implementers:
/// - A record belongs to exactly one group, once: membership is keyed by the record's identity
///   `(namespace, reportID, createTime)`, so a step that runs again, or twice at once, adds
///   nothing twice, and counts only the rows it added.
/// - No committed record is ever passed over, even one committed after records received later;
///   progress lives in the database, so grouping resumes where it stopped after a restart.
/// - ``crashGroups(since:until:limit:)`` and ``crashGroup(signature:since:until:bucket:)``
///   count the crash records whose `createTime` is in `since..<until` (either bound may be
///   `nil`), and answer in a time that does not grow with the records outside the window.
/// - Errors are ``CollectorError``s and never contain record contents.
///
/// ```swift
/// while try await storage.groupCrashes(limit: 1_000) == 1_000 {}
/// let groups = try await storage.crashGroups(since: now - 86_400_000, until: nil, limit: 50)
/// ```
public protocol CrashGroupStorage: Sendable {
    /// Groups up to `limit` crash records not grouped yet, in one transaction.
    /// - Parameter limit: the most records to group (at least 1).
    /// - Returns: how many records this step grouped; fewer than `limit` once grouping has caught
    ///   up (or while another collector's step runs).
    func groupCrashes(limit: Int) async throws -> Int

    /// The crash groups with crashes in a time window, the latest crash first.
    /// - Parameters:
    ///   - since: the window's first `CREATE_TIME` in milliseconds, or `nil` for no lower bound.
    ///   - until: the first `CREATE_TIME` after the window, or `nil` for no upper bound.
    ///   - limit: the most groups to return.
    /// - Returns: the groups ordered by ``CrashGroupSummary/lastSeen``, latest first.
    func crashGroups(since: Int64?, until: Int64?, limit: Int) async throws -> [CrashGroupSummary]

    /// One crash group in a time window: its summary, its latest crash record and its crashes per
    /// time bucket.
    /// - Parameters:
    ///   - signature: the group's ``CrashGroupSummary/signature``.
    ///   - since: the window's first `CREATE_TIME` in milliseconds, or `nil` for no lower bound.
    ///   - until: the first `CREATE_TIME` after the window, or `nil` for no upper bound.
    ///   - bucket: the buckets' length in milliseconds (an hour: `3_600_000`); buckets start at
    ///     multiples of it.
    /// - Returns: the group, or `nil` when it has no crash in the window.
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a `bucket` below 1 ms.
    func crashGroup(signature: String, since: Int64?, until: Int64?, bucket: Int64) async throws -> CrashGroupDetail?
}
