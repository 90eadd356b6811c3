public import HermesWire

/// Where a collector keeps records and its configuration document.
///
/// Implementations: ``SQLiteCollectorStorage`` (a file, or memory for tests) and
/// `PostgresCollectorStorage` (module `HermesCollectorPostgres`: one database for several
/// collectors behind a load balancer).
///
/// Contract for implementers:
/// - ``store(_:)`` writes the whole batch in one transaction or nothing, and keeps each record
///   at most once per `(namespace, reportID)`: a record already stored, by an earlier batch or
///   earlier in the same batch, is counted as a duplicate and left as it was. (A store may key on
///   `(namespace, reportID, createTime)`, as the partitioned PostgreSQL store must: a record the
///   SDK resends carries the same `createTime`.) It returns only once the batch is committed. The
///   transaction may be shared with concurrent batches (group commit) as long as each batch stays
///   all or nothing and fails alone.
/// - ``events(_:)`` orders by `createTime`, then by insertion order, and returns at most
///   `query.limit` events; ``count(_:)`` ignores the limit.
/// - ``saveConfiguration(_:)`` replaces the saved document; ``loadConfiguration()`` returns the
///   last one saved, after a restart too, or `nil` if none was ever saved.
/// - ``updateConfiguration(from:_:)`` is atomic against every collector sharing the store, and
///   ``watchConfiguration(_:)`` reports the documents other collectors save (both have defaults
///   for a store only one collector writes).
/// - ``removeDays(before:)`` removes whole UTC days of `createTime`, never a record of a later day.
/// - Errors never contain keys, tokens or record contents.
public protocol CollectorStorage: ConsoleStorage, AlertStorage, CrashGroupStorage {
    /// Stores a batch in one transaction, each record at most once per `(namespace, reportID)`.
    /// - Parameter batch: the checked records of one upload.
    /// - Returns: how many records were new and how many were already stored.
    func store(_ batch: IngestBatch) async throws -> StoreOutcome

    /// A page of the stored events matching a query, oldest `createTime` first: at most the
    /// query's limit and ``EventQuery/maximumPageBytes`` (see ``EventPage``).
    /// - Parameter query: the filters and the limit.
    func events(_ query: EventQuery) async throws -> EventPage

    /// How many stored events match a query's filters (its limit is ignored).
    /// - Parameter query: the filters.
    func count(_ query: EventQuery) async throws -> Int

    /// The configuration document saved last, or `nil` if none was ever saved.
    func loadConfiguration() async throws -> ConfigurationDocument?

    /// Saves the configuration document, replacing the one saved before.
    /// - Parameter document: the document to serve from now on.
    func saveConfiguration(_ document: ConfigurationDocument) async throws

    /// Applies `edit` to the saved document, or to `current` when none was saved, and saves the
    /// result, with no other collector's change in between.
    /// - Parameters:
    ///   - current: the document this collector serves, the base when the store holds none.
    ///   - edit: makes the next document; what it throws aborts the change.
    /// - Returns: the document saved.
    func updateConfiguration(
        from current: ConfigurationDocument,
        _ edit: @Sendable (ConfigurationDocument) throws(CollectorError) -> ConfigurationDocument
    ) async throws -> ConfigurationDocument

    /// Calls `changed` whenever another collector may have saved a configuration, until the
    /// calling task is cancelled; returns at once for a store no other collector writes.
    /// - Parameter changed: reloads the document (it may be called when nothing changed).
    func watchConfiguration(_ changed: @escaping @Sendable () async -> Void) async throws

    /// Removes every record of the UTC days that end at or before `cutoff` (whole days only:
    /// a day that `cutoff` falls inside is kept).
    /// - Parameter cutoff: a `CREATE_TIME` in milliseconds; usually now minus the retention.
    /// - Returns: how many days' partitions were dropped (0 for a store without them) and how
    ///   many records went (a store that drops whole days may estimate them: see
    ///   ``RetentionOutcome/recordsRemoved``).
    func removeDays(before cutoff: Int64) async throws -> RetentionOutcome

    /// Removes every record of a user or a device, on every day and partition, with what the
    /// console keeps of them by id (their crash groups' memberships; a device's latest queue
    /// depth). Aggregates without ids (the per-minute counts, the performance and loss rollups)
    /// stay; records uploaded while it runs may stay. Sync records are not records here.
    /// - Returns: how many records went.
    func erase(_ subject: ErasureSubject) async throws -> Int

    /// How many bytes the store takes (the database or the file), for `/metrics`; `nil` when
    /// the store cannot tell.
    func storageBytes() async throws -> Int?
}
