public import HermesWire

/// Answers record sync requests: applies a device's change sets one by one, each in its own
/// transaction, then adds a page of what the device missed.
///
/// Used by the `POST /v1/sync` route; call ``answer(_:credential:now:)`` directly to run sync in process.
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
    ///
    /// The device is who its `credential` says (``SyncDevice``), bound to its client id; the
    /// schema's access rules decide what it may write and which records the page carries.
    /// - Parameters:
    ///   - request: the device's request.
    ///   - credential: the secret the device sent (`Authorization: Bearer`), if any.
    ///   - now: milliseconds since 1970.
    /// - Returns: the answer.
    /// - Throws: ``CollectorError`` `unauthorized` for a credential that is unknown, revoked or
    ///   not the client id's, a client id that has a credential sent without it, or no credential
    ///   where ``SyncRules/requireCredentials``; `missingField` when a change set has no positive
    ///   `sequence` (nothing is applied); `storageFailed` if the database fails (the change sets
    ///   applied before stay applied, and are answered again from their recorded outcome).
    public func answer(_ request: SyncRequest, credential: String? = nil, now: Int64) async throws(CollectorError) -> SyncAnswer {
        let identity = try await identity(of: request.clientID, credential: credential)
        guard request.changeSets.allSatisfy({ ($0.sequence ?? 0) > 0 }) else {
            throw CollectorError(.packet(.missingField), "every change set needs a positive sequence")
        }
        var outcomes: [SyncChangeSet] = []
        var chain = SyncChain()
        for changeSet in request.changeSets.prefix(rules.maximumChangeSets) {
            let resolved = chain.resolving(changeSet, schema: rules.schema)
            let outcome = try await storage.apply(
                resolved, from: identity, schemaVersion: request.schemaVersion, rules: rules, now: now)
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
        let missed = answer.changeSets.filter { $0.revision.map { !own.contains($0) } ?? true }
        answer.changeSets = outcomes + readable(missed, by: identity)
        return answer
    }

    /// Who sends a request for `clientID` with `credential`: the credential's device, or an
    /// anonymous device when the client id has no credential and the rules allow that.
    func identity(of clientID: String, credential: String?) async throws(CollectorError) -> SyncIdentity {
        let device = try await storage.device(clientID: clientID)
        guard let credential else {
            if device != nil {
                throw CollectorError(.unauthorized, "client id \(clientID) has a device credential: send it as Authorization: Bearer")
            }
            if rules.requireCredentials {
                throw CollectorError(.unauthorized, "this collector syncs only devices with a credential (hermes sync devices add)")
            }
            return SyncIdentity(clientID: clientID)
        }
        guard let device, device.accepts(credential) else { throw CollectorError(.unauthorized, "the credential is not client id \(clientID)'s") }
        guard device.revokedAt == nil else { throw CollectorError(.unauthorized, "the credential of client id \(clientID) is revoked") }
        return device.identity
    }

    /// `changeSets` without the records `identity` may not read, and without those left empty.
    private func readable(_ changeSets: [SyncChangeSet], by identity: SyncIdentity) -> [SyncChangeSet] {
        guard rules.schema.types.contains(where: { $0.read != [.everyone] }) else { return changeSets }
        return changeSets.compactMap { changeSet in
            var changeSet = changeSet
            changeSet.entries = changeSet.entries.filter { rules.schema.type(named: $0.record.type)?.mayRead($0.record, by: identity) ?? false }
            return changeSet.entries.isEmpty ? nil : changeSet
        }
    }
}
