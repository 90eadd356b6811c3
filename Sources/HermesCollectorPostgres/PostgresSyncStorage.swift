public import HermesCollector
public import HermesWire
public import Logging
import PostgresNIO

/// Record sync's store on PostgreSQL: the `sync_` tables of the collector's database (see
/// ``PostgresSyncSchema``), for a data set larger than one SQLite file serves well or shared by
/// several collector instances.
///
/// It keeps the ``SyncStorage`` contract. Each change set is one transaction
/// (``PostgresSyncApplier``) that starts by locking the row of `sync_state` and bumps the
/// revision there: applies run one after the other and commit in revision order, so a catch-up
/// page, read from one snapshot (`REPEATABLE READ`), holds every revision up to its end.
///
/// ```swift
/// let storage = try await PostgresSyncStorage.open(url: "postgres://hermes@db:5432/hermes", logger: logger)
/// let sync = SyncServer(storage: storage, rules: SyncRules(schema: schema))
/// // … serve …
/// await storage.close()
/// ```
public final class PostgresSyncStorage: SyncStorage {
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>
    private let gate = PostgresOperationGate()

    private init(client: PostgresClient, logger: Logger, running: Task<Void, Never>) {
        self.client = client
        self.logger = logger
        self.running = running
    }

    /// Connects and creates or migrates the sync tables. Call ``close()`` when done.
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database` (`?sslmode=…`), as for the collector's store.
    ///   - logger: where the store logs; never with passwords or record contents.
    ///   - maximumConnections: the pool's size (default 8), opened at start and kept open;
    ///     applies wait for each other anyway.
    ///   - openTimeout: how long to wait for the database (default 10 s).
    /// - Returns: the open store.
    /// - Throws: ``CollectorError/Code/storageFailed`` for a malformed URL, a database that does
    ///   not answer in time, or tables that cannot be migrated.
    public static func open(
        url: String, logger: Logger, maximumConnections: Int = 8, openTimeout: Duration = .seconds(10)
    ) async throws(CollectorError) -> PostgresSyncStorage {
        let parsed = try PostgresURL(url)
        let client = PostgresClient(configuration: parsed.configuration(poolSize: maximumConnections), backgroundLogger: logger)
        let running = Task { await client.run() }
        do {
            try await PostgresErrors.withDeadline(openTimeout, "reach \(parsed.redacted)") {
                try await PostgresMigrator(client: client, logger: logger).apply(PostgresSyncSchema.migrations, ledger: PostgresSyncSchema.ledger)
            }
        } catch {
            running.cancel()
            throw error
        }
        return PostgresSyncStorage(client: client, logger: logger, running: running)
    }

    /// Refuses new operations, lets those under way finish, and closes every connection.
    public func close() async {
        await gate.close()
        running.cancel()
        await running.value
    }

    /// Runs one operation of the store (``PostgresErrors/run(_:isolation:_:)``), unless the store is closed.
    func run<T: Sendable>(
        _ action: String, isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async throws(CollectorError) -> T {
        try gate.enter(action)
        defer { gate.leave() }
        return try await PostgresErrors.run(action, work)
    }

    public func apply(
        _ changeSet: SyncChangeSet, from identity: SyncIdentity, schemaVersion: Int64, rules: SyncRules, now: Int64
    ) async throws(CollectorError) -> SyncChangeSet {
        let planner = SyncApplyPlanner(changeSet, rules: rules, identity: identity, schemaVersion: schemaVersion)
        return try await run("apply the change set") {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresSyncApplier(connection: connection, logger: logger, planner: planner, now: now).apply()
            }
        }
    }

    public func page(after maxRevision: Int64, cursor: String?, limit: Int) async throws(CollectorError) -> SyncAnswer {
        try await run("read the missed change sets") {
            try await client.withTransaction(logger: logger) { connection in
                // One snapshot for the state and the records: the page ends at a revision it holds whole.
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                var state: (revision: Int64, horizon: Int64) = (0, 0)
                for try await row in try await connection.query(
                    "SELECT revision, horizon FROM sync_state WHERE id = 1", logger: logger
                ).decode((Int64, Int64).self) { state = row }
                let plan = SyncPagePlan(maxRevision: maxRevision, cursor: SyncCursor(cursor), horizon: state.horizon, current: state.revision)
                var sizes: [(revision: Int64, bytes: Int)] = []
                for try await row in try await connection.query(
                    """
                    SELECT revision, COALESCE(octet_length(attributes), 0)::int8 FROM sync_records
                    WHERE revision > \(plan.position) ORDER BY revision LIMIT \(limit)
                    """, logger: logger
                ).decode((Int64, Int64).self) { sizes.append((row.0, Int(row.1))) }
                let end = SyncPageBound.end(of: sizes, limit: limit, current: state.revision)
                // Tombstones too, even in a full copy (see SQLiteSyncStorage).
                let rows = try await connection.query(
                    """
                    SELECT type, id, revision, created, attributes FROM sync_records
                    WHERE revision > \(plan.position) AND revision <= \(end) ORDER BY revision, type, id
                    """, logger: logger)
                var missed = SyncMissedChangeSets()
                for try await row in rows.decode((String, Int64, Int64, Int64, String?).self) {
                    missed.append(SyncRecord(type: row.0, id: row.1, revision: row.2, pageAttributes: row.4), created: row.3)
                }
                return plan.answer(end: end, current: state.revision, changeSets: missed.changeSets)
            }
        }
    }

    public func pruneHistory(before cutoff: Int64) async throws(CollectorError) -> Int {
        try await run("forget old tombstones") {
            try await client.withTransaction(logger: logger) { connection in
                // Behind the applies in progress, as one of them.
                try await connection.query("SELECT 1 FROM sync_state WHERE id = 1 FOR UPDATE", logger: logger)
                var removed = 0
                var newest: Int64?
                for try await row in try await connection.query(
                    """
                    WITH gone AS (DELETE FROM sync_records WHERE deleted_at IS NOT NULL AND deleted_at < \(cutoff) RETURNING revision)
                    SELECT count(*), max(revision) FROM gone
                    """, logger: logger
                ).decode((Int64, Int64?).self) {
                    removed = Int(row.0)
                    newest = row.1
                }
                if let newest {
                    try await connection.query("UPDATE sync_state SET horizon = GREATEST(horizon, \(newest)) WHERE id = 1", logger: logger)
                }
                // Each device's last outcome stays: it tells a sequence sent again from one never seen.
                try await connection.query(
                    """
                    DELETE FROM sync_outcomes o WHERE received_at < \(cutoff)
                    AND sequence < (SELECT max(sequence) FROM sync_outcomes m WHERE m.client_id = o.client_id)
                    """, logger: logger)
                return removed
            }
        }
    }

    public func liveRecords() async throws(CollectorError) -> [SyncRecord] {
        try await run("read the records") {
            let rows = try await client.query(
                "SELECT type, id, revision, attributes FROM sync_records WHERE attributes IS NOT NULL ORDER BY type, id", logger: logger
            )
            var records: [SyncRecord] = []
            for try await row in rows.decode((String, Int64, Int64, String?).self) {
                records.append(try SyncRecord(type: row.0, id: row.1, revision: row.2, storedAttributes: row.3))
            }
            return records
        }
    }
}

extension PostgresSyncStorage {
    public func addDevice(_ device: SyncDevice) async throws(CollectorError) {
        var binds = PostgresBindings()
        for text in [device.clientID, device.user, device.storedRoles, device.secretHash] { binds.append(text) }
        binds.append(device.createdAt)
        let query = PostgresQuery(unsafeSQL: SyncDeviceQueries.insert, binds: binds)
        let added = try await run("store the device credential") {
            try await client.query(query, logger: logger).collect().count == 1
        }
        if !added { throw SyncDeviceQueries.taken(device.clientID) }
    }

    public func device(clientID: String) async throws(CollectorError) -> SyncDevice? {
        var binds = PostgresBindings()
        binds.append(clientID)
        return try await devices(PostgresQuery(unsafeSQL: SyncDeviceQueries.selectOne, binds: binds)).first
    }

    public func devices() async throws(CollectorError) -> [SyncDevice] {
        try await devices(PostgresQuery(unsafeSQL: SyncDeviceQueries.selectAll))
    }

    public func revokeDevice(clientID: String, now: Int64) async throws(CollectorError) -> Bool {
        var binds = PostgresBindings()
        binds.append(now)
        binds.append(clientID)
        let query = PostgresQuery(unsafeSQL: SyncDeviceQueries.revoke, binds: binds)
        return try await run("revoke the device credential") { try await client.query(query, logger: logger).collect().count == 1 }
    }

    private func devices(_ query: PostgresQuery) async throws(CollectorError) -> [SyncDevice] {
        try await run("read the device credentials") {
            var devices: [SyncDevice] = []
            for try await row in try await client.query(query, logger: logger).decode((String, String, String, String, Int64, Int64?).self) {
                devices.append(
                    SyncDevice(
                        clientID: row.0, user: row.1, roles: SyncDevice.roles(stored: row.2), secretHash: row.3, createdAt: row.4,
                        revokedAt: row.5))
            }
            return devices
        }
    }
}

extension PostgresSyncStorage {
    /// Every recorded outcome as (client, sequence, applied): for the sync torture's audit.
    package func outcomes() async throws(CollectorError) -> [(clientID: String, sequence: Int64, applied: Bool)] {
        try await run("read the outcomes") {
            let rows = try await client.query(
                "SELECT client_id, sequence, revision IS NOT NULL FROM sync_outcomes ORDER BY client_id, sequence", logger: logger
            )
            var outcomes: [(clientID: String, sequence: Int64, applied: Bool)] = []
            for try await row in rows.decode((String, Int64, Bool).self) { outcomes.append((row.0, row.1, row.2)) }
            return outcomes
        }
    }
}
