/// What the console keeps beside the records: its users and sessions, the history of
/// configuration changes, and the per-minute counts of new records.
///
/// Every ``CollectorStorage`` is one: the console works on SQLite and on PostgreSQL, and
/// collectors sharing a database share its users, sessions and history.
public protocol ConsoleStorage: Sendable {
    /// Every console user, by name.
    func consoleUsers() async throws -> [ConsoleUser]

    /// The user with this name, or `nil`.
    func consoleUser(named name: String) async throws -> ConsoleUser?

    /// Adds a user, or replaces the one with the same name (its sessions stay).
    func saveConsoleUser(_ user: ConsoleUser) async throws

    /// Removes a user and every session of theirs.
    /// - Returns: whether there was such a user.
    func removeConsoleUser(named name: String) async throws -> Bool

    /// Keeps a new session (and forgets the sessions that ended before its start).
    /// - Parameters:
    ///   - session: the session; its ``ConsoleSession/role`` is not stored (the user's is read).
    ///   - now: the time, in milliseconds since 1970.
    func createConsoleSession(_ session: ConsoleSession, now: Int64) async throws

    /// The session whose token hashes to `tokenHash`, with its user's role now, or `nil` when
    /// there is none, it ended before `now`, or its user is gone.
    func consoleSession(tokenHash: String, now: Int64) async throws -> ConsoleSession?

    /// Ends a session (signing out).
    func removeConsoleSession(tokenHash: String) async throws

    /// Keeps one configuration change.
    func appendConfigurationChange(_ change: ConfigurationChange) async throws

    /// The newest configuration changes first, of one namespace or all.
    /// - Parameters:
    ///   - namespace: one namespace, or `nil` for all.
    ///   - limit: the most to return.
    func configurationChanges(namespace: String?, limit: Int) async throws -> [ConfigurationChange]

    /// One configuration change by id, or `nil`.
    func configurationChange(id: Int64) async throws -> ConfigurationChange?

    /// The events matching `query`'s filters that arrived at or after `receivedSince`, oldest
    /// arrival first, at most `query.limit` (`query`'s order and cursor are ignored): what a
    /// live tail polls.
    func arrivals(_ query: EventQuery, receivedSince: Int64) async throws -> [StoredEvent]

    /// The per-minute counts of new records from minute `since` on (see ``RecordMinute``).
    func recordMinutes(since minute: Int64) async throws -> [RecordMinute]

    /// The performance rollup's cells of `width` minutes that start in minutes `from..<until`,
    /// summed by slots of `slotMinutes` counted from `from` (see ``PerformanceCell``).
    func performanceRollup(width: Int64, from: Int64, until: Int64, slotMinutes: Int64) async throws -> [PerformanceRollupRow]

    /// Records lost on devices by app version and reason, as `sdkHealth` records created from
    /// hour `sinceHour` (hours since 1970) on reported them.
    func deliveryLosses(sinceHour: Int64) async throws -> [DeliveryLoss]

    /// The devices whose latest `sdkHealth` report was created at or after `reportedSince` (ms),
    /// and the records waiting on them by those reports.
    func queuedOnDevices(reportedSince: Int64) async throws -> QueuedOnDevices
}
