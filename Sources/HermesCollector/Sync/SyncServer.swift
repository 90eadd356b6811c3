public import HermesWire

/// Answers record sync requests: applies a device's change sets one by one, each in its own
/// transaction, then adds a page of what the device missed.
///
/// Used by the `POST /v1/sync` route; call ``answer(_:now:)`` directly to run sync in process.
///
/// ```swift
/// let server = SyncServer(storage: try SQLiteSyncStorage(path: path), rules: SyncRules(schema: schema))
/// let answer = try await server.answer(request, now: nowMilliseconds)
/// ```
public struct SyncServer: Sendable {
    /// Where the data set lives.
    public let storage: any SyncStorage
    /// The schema, the permission check and the page size.
    public let rules: SyncRules

    /// A server over `storage` enforcing `rules`.
    public init(storage: any SyncStorage, rules: SyncRules) {
        self.storage = storage
        self.rules = rules
    }

    /// The answer to `request`: the outcome of each of its change sets, in order, each read
    /// through what the ones before it became (the server ids and revisions they took: a device
    /// may queue change sets that build on each other and send them at once), up to
    /// ``SyncRules/maximumChangeSets`` and the first refused one; then one page of missed change
    /// sets, without the revisions this request's own change sets were applied at (their
    /// outcomes carry them).
    /// - Parameters:
    ///   - request: the device's request.
    ///   - now: milliseconds since 1970.
    /// - Returns: the answer.
    /// - Throws: ``CollectorError`` `missingField` when a change set has no positive `sequence`
    ///   (nothing is applied); `storageFailed` if the database fails (the change sets applied
    ///   before stay applied, and are answered again from their recorded outcome).
    public func answer(_ request: SyncRequest, now: Int64) async throws(CollectorError) -> SyncAnswer {
        guard request.changeSets.allSatisfy({ ($0.sequence ?? 0) > 0 }) else {
            throw CollectorError(.packet(.missingField), "every change set needs a positive sequence")
        }
        var outcomes: [SyncChangeSet] = []
        var chain = SyncChain()
        for changeSet in request.changeSets.prefix(rules.maximumChangeSets) {
            let resolved = chain.resolving(changeSet, schema: rules.schema)
            let outcome = try await storage.apply(
                resolved, from: request.clientID, schemaVersion: request.schemaVersion, rules: rules, now: now)
            outcomes.append(outcome)
            // The change sets after a refused one wait for the device to see the refusal: they
            // may build on what it would have made.
            guard outcome.conflict == false else { break }
            chain.note(changeSet, applied: outcome)
        }
        var answer = try await storage.page(after: request.maxRevision, cursor: request.cursor, limit: rules.pageRecords)
        // No echo: the device's own applied change sets come back as their outcomes (with their
        // records), not again among the missed ones; except in a full copy (a reset), which the
        // device stores in place of everything it held.
        let own = answer.reset ? [] : Set(outcomes.compactMap { $0.conflict == true ? nil : $0.revision })
        answer.changeSets = outcomes + answer.changeSets.filter { $0.revision.map { !own.contains($0) } ?? true }
        return answer
    }
}
