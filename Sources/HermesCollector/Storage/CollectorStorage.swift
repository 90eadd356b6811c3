public import HermesWire

/// Where a collector keeps records and its configuration document.
///
/// Implementations: ``SQLiteCollectorStorage`` (a file, or memory for tests). A PostgreSQL
/// store for several collectors behind a load balancer can implement the same contract.
///
/// Contract for implementers:
/// - ``store(_:)`` writes the whole batch in one transaction or nothing, and keeps each record
///   at most once per `(namespace, reportID)`: a record already stored, by an earlier batch or
///   earlier in the same batch, is counted as a duplicate and left as it was. It returns only
///   once the batch is committed. The transaction may be shared with concurrent batches (group
///   commit) as long as each batch stays all or nothing and fails alone.
/// - ``events(_:)`` orders by `createTime`, then by insertion order, and returns at most
///   `query.limit` events; ``count(_:)`` ignores the limit.
/// - ``saveConfiguration(_:)`` replaces the saved document; ``loadConfiguration()`` returns the
///   last one saved, after a restart too, or `nil` if none was ever saved.
/// - Errors never contain keys, tokens or record contents.
public protocol CollectorStorage: Sendable {
    /// Stores a batch in one transaction, each record at most once per `(namespace, reportID)`.
    /// - Parameter batch: the checked records of one upload.
    /// - Returns: how many records were new and how many were already stored.
    func store(_ batch: IngestBatch) async throws -> StoreOutcome

    /// The stored events matching a query, oldest `createTime` first.
    /// - Parameter query: the filters and the limit.
    func events(_ query: EventQuery) async throws -> [StoredEvent]

    /// How many stored events match a query's filters (its limit is ignored).
    /// - Parameter query: the filters.
    func count(_ query: EventQuery) async throws -> Int

    /// The configuration document saved last, or `nil` if none was ever saved.
    func loadConfiguration() async throws -> ConfigurationDocument?

    /// Saves the configuration document, replacing the one saved before.
    /// - Parameter document: the document to serve from now on.
    func saveConfiguration(_ document: ConfigurationDocument) async throws
}
