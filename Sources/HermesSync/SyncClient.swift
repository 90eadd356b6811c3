public import GRDB
public import HermesWire
import Foundation

/// A device's side of record sync: the whole shared data set in a local SQLite database, local
/// writes that work offline, and ``sync(maximumExchanges:)`` to exchange changes with the server.
///
/// - A ``write(_:)`` saves its changes and queues them as one change set in the same
///   transaction: a queued change survives the app being killed.
/// - ``sync(maximumExchanges:)`` sends the queued change sets (one request in flight), applies each answer in one
///   transaction (server ids, missed change sets, conflicts, and the new revision last), and asks
///   again while the server has more.
/// - ``events`` tells the app what changed and which of its changes were refused.
///
/// ```swift
/// let client = try SyncClient(path: path, clientID: "ipad-7", schema: schema, transport: transport)
/// try client.write { changes in try changes.create("teams", ["name": "Blue"]) }
/// let report = try await client.sync()
/// ```
public final class SyncClient: Sendable {
    /// The local database (the app may read it; write through ``write(_:)`` only).
    public let database: any DatabaseWriter
    /// The shared schema.
    public let schema: SyncSchema
    /// Changes and conflicts, as they are applied. Finishes with ``close()``.
    public let events: AsyncStream<SyncEvent>

    private let clientID: String
    private let transport: any SyncTransport
    private let maximumChangeSets: Int
    private let tables: SyncTables
    private let continuation: AsyncStream<SyncEvent>.Continuation
    private let inFlight = Locked(false)

    /// Opens (or creates) a device's data set.
    /// - Parameters:
    ///   - path: the SQLite file, or `nil` for a database in memory (tests).
    ///   - clientID: the device's stable id, unique among devices.
    ///   - schema: the shared schema (the same value as the server's).
    ///   - transport: how requests reach the server.
    ///   - maximumChangeSets: at most this many change sets per request.
    ///   - snapshot: a database written by ``SyncSnapshot`` (shipped in the app's bundle) to start
    ///     from when `path` holds none yet: it is copied there, and the device catches up from its
    ///     revision instead of downloading everything.
    /// - Throws: ``SyncError/Code/storageFailed`` if the database cannot be opened (or the
    ///   snapshot copied).
    public init(
        path: String?, clientID: String, schema: SyncSchema, transport: any SyncTransport, maximumChangeSets: Int = 100, snapshot: String? = nil
    ) throws(SyncError) {
        let tables = SyncTables(schema: schema)
        database = try storage {
            if let snapshot, let path, !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.copyItem(atPath: snapshot, toPath: path)
            }
            let database: any DatabaseWriter = if let path { try DatabasePool(path: path) } else { try DatabaseQueue() }
            try tables.create(in: database, clientID: clientID)
            return database
        }
        self.schema = schema
        self.clientID = clientID
        self.transport = transport
        self.maximumChangeSets = max(1, maximumChangeSets)
        self.tables = tables
        (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Makes local changes and queues them as one change set, in one transaction that is on the
    /// disk when `write` returns.
    ///
    /// The commit is synced (`synchronous = FULL` for it alone; the answers' transactions are not):
    /// once a change set is sent, its sequence must never be handed out again, even after a power
    /// loss, or the server would answer a new change set with the outcome of the lost one.
    /// - Parameter body: the changes; throwing rolls them all back.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or ``SyncError/Code/storageFailed``.
    @discardableResult
    public func write<T>(_ body: (inout SyncChanges) throws -> T) throws -> T {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
            var result: T?
            try db.inTransaction {
                var changes = SyncChanges(db: db, tables: tables)
                result = try body(&changes)
                if !changes.entries.isEmpty {
                    try tables.notifyChanges(to: changes.entries.map(\.record.type), in: db)
                    let sequence = try SyncDeviceState.takeSequence(in: db)
                    try tables.enqueue(SyncChangeSet(sequence: sequence, entries: changes.entries), in: db)
                }
                return .commit
            }
            return result!
        }
    }

    /// Exchanges changes with the server until nothing is queued and nothing is missed (at most
    /// `maximumExchanges` requests).
    ///
    /// The local database work runs on the database's own queue, never on the caller's thread or
    /// on Swift concurrency's shared threads, which the app's other tasks need.
    /// - Returns: what was applied and refused.
    /// - Throws: ``SyncError/Code/busy`` if a sync is in flight; ``SyncError/Code/transportFailed``
    ///   or ``SyncError/Code/invalidAnswer`` (the answers applied before stay applied).
    @discardableResult
    public func sync(maximumExchanges: Int = 10_000) async throws(SyncError) -> SyncReport {
        guard
            inFlight.withLock({ busy in
                defer { busy = true }
                return !busy
            })
        else { throw SyncError(.busy, "a sync is in flight; wait for it") }
        defer { inFlight.withLock { $0 = false } }
        var report = SyncReport()
        for _ in 0..<max(1, maximumExchanges) {
            // Read on the writer's queue, where no write comes between its two reads: one hop
            // there and back, where a pooled reader takes two (about 90 µs against 170 on a
            // two-core Linux machine).
            let request = try await storage { try await database.writeWithoutTransaction { try nextRequest($0) } }
            let bytes: [UInt8]
            do {
                bytes = try await transport.exchange(try request.jsonBytes())
            } catch {
                throw SyncError(.transportFailed, "the sync request failed: \(error)", underlying: error)
            }
            let answer: SyncAnswer
            do throws(HermesWireError) {
                answer = try SyncAnswer(jsonBytes: bytes)
            } catch {
                throw SyncError(.invalidAnswer, "the server's answer could not be read: \(error.message)", underlying: error)
            }
            let (round, changed, anyQueued) = try await storage {
                try await database.write { [tables] db in
                    let (round, changed) = try SyncAnswerApplier(db: db, tables: tables).apply(answer)
                    return (round, changed, try tables.hasQueued(in: db))
                }
            }
            report.exchanges += 1
            report.applied += round.applied
            report.conflicts += round.conflicts
            report.received += round.received
            report.maxRevision = round.maxRevision
            report.reset = report.reset || round.reset
            report.pending += round.pending
            if round.reset { continuation.yield(.reset) }
            for conflict in round.conflicts { continuation.yield(.conflict(conflict)) }
            if !changed.isEmpty { continuation.yield(.changed(changed)) }
            if !answer.hasMore && (!anyQueued || request.changeSets.isEmpty || !round.pending.isEmpty) { break }
        }
        return report
    }

    /// The next request: the state, and the oldest queued change sets (at most
    /// `maximumChangeSets`), those that build on earlier ones included: the server reads each
    /// through the outcomes of those before it in the request, and stops at the first refused.
    private func nextRequest(_ db: Database) throws -> SyncRequest {
        let state = try SyncDeviceState.read(in: db)
        return SyncRequest(
            clientID: clientID, schemaVersion: schema.version, maxRevision: state.maxRevision, cursor: state.cursor,
            changeSets: try tables.outbox(in: db, limit: maximumChangeSets)
        )
    }

    /// Every local record of `type`, by id.
    /// - Throws: ``SyncError/Code/invalidChange`` for a type not in the schema, or ``SyncError/Code/storageFailed``.
    public func records(_ type: String) throws(SyncError) -> [SyncRecord] {
        guard let entityType = schema.type(named: type) else { throw SyncError(.invalidChange, "the schema has no type \(type)") }
        return try storage { try database.read { try tables.records(of: entityType, in: $0) } }
    }

    /// The local record, or `nil`.
    /// - Throws: ``SyncError/Code/storageFailed``.
    public func record(_ type: String, id: Int64) throws(SyncError) -> SyncRecord? {
        try storage { try database.read { try tables.record(SyncRecordKey(type: type, id: id), in: $0) } }
    }

    /// The last revision stored with its changes.
    /// - Throws: ``SyncError/Code/storageFailed``.
    public func maxRevision() throws(SyncError) -> Int64 {
        try storage { try database.read { try SyncDeviceState.read(in: $0).maxRevision } }
    }

    /// How many change sets wait to be sent.
    /// - Throws: ``SyncError/Code/storageFailed``.
    public func queuedChangeSets() throws(SyncError) -> Int {
        try storage { try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM hermes_sync_outbox")! } }
    }

    /// The sequence the next queued change set gets (one more than the last queued).
    /// - Throws: ``SyncError/Code/storageFailed``.
    public func nextSequence() throws(SyncError) -> Int64 {
        try storage { try database.read { try SyncDeviceState.read(in: $0).nextSequence } }
    }

    /// Finishes ``events``.
    public func close() {
        continuation.finish()
    }
}
