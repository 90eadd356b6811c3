public import HermesWire

/// Where the collector keeps the shared data set of record sync: the records with the revision
/// each was last written at, tombstones of deleted records, and the outcome of every change set
/// by `(clientID, sequence)`.
///
/// The contract an implementation keeps (``SQLiteSyncStorage`` and the PostgreSQL store keep it):
/// - Revisions are assigned one at a time in commit order: a reader that sees revision *n*
///   committed sees every revision below it, so a catch-up cursor never skips a commit.
/// - ``apply(_:from:schemaVersion:rules:now:)`` applies a change set in one transaction or not at
///   all, and records its outcome under `(clientID, sequence)` in the same transaction: the same
///   change set sent again gets the recorded outcome and is not applied twice.
/// - A change set that can never be applied is consumed: its outcome is a conflict.
public protocol SyncStorage: Sendable {
    /// Applies one change set from a device, or refuses it whole.
    /// - Parameters:
    ///   - changeSet: the device's change set, with its `sequence`.
    ///   - identity: the device, its user and roles.
    ///   - schemaVersion: the schema version the device declared.
    ///   - rules: the schema with its access rules, and the permission check.
    ///   - now: the time in milliseconds since 1970, stamped on tombstones and outcomes.
    /// - Returns: the outcome to answer: `conflict: false` with the server's ids, `__oldId__` and the
    ///   new revision; or `conflict: true`, a `SyncConflictReason` and the authoritative state of
    ///   the records involved.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails (nothing is applied).
    func apply(_ changeSet: SyncChangeSet, from identity: SyncIdentity, schemaVersion: Int64, rules: SyncRules, now: Int64)
        async throws(CollectorError)
        -> SyncChangeSet

    /// One page of what a device at `maxRevision` (with the `cursor` of its last answer) missed.
    /// - Parameters:
    ///   - maxRevision: the device's revision.
    ///   - cursor: the cursor of the device's last answer.
    ///   - limit: about how many records a page holds (a revision is never split).
    /// - Returns: an answer holding the missed change sets only.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func page(after maxRevision: Int64, cursor: String?, limit: Int) async throws(CollectorError) -> SyncAnswer

    /// Forgets tombstones and change set outcomes older than `cutoff`; a device whose revision is
    /// older than the forgotten history gets a full copy next time.
    /// - Parameter cutoff: milliseconds since 1970.
    /// - Returns: how many tombstones were removed.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func pruneHistory(before cutoff: Int64) async throws(CollectorError) -> Int

    /// The current revision, records per type, the `recent` newest change set outcomes and the
    /// `devices` most recently seen devices: the console's sync page.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func overview(recent: Int, devices: Int) async throws(CollectorError) -> SyncOverview

    /// Stores a new device credential.
    /// - Throws: ``CollectorError/Code/editConflict`` when the client id already has one
    ///   (revoked or not: a client id is never reused); `storageFailed` if the database fails.
    func addDevice(_ device: SyncDevice) async throws(CollectorError)

    /// The credential bound to `clientID`, revoked or not, or `nil`.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func device(clientID: String) async throws(CollectorError) -> SyncDevice?

    /// Every credential, by client id.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func devices() async throws(CollectorError) -> [SyncDevice]

    /// Revokes the credential of `clientID` at `now`: its requests are refused from then on.
    /// - Returns: whether a credential not yet revoked was found.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func revokeDevice(clientID: String, now: Int64) async throws(CollectorError) -> Bool

    /// Every live record, ordered by type and id: for audits and tests.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the database fails.
    func liveRecords() async throws(CollectorError) -> [SyncRecord]
}
