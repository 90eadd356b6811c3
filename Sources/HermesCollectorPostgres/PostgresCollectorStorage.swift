import Foundation
public import HermesCollector
import HermesWire
public import Logging
import NIOCore
package import PostgresNIO

/// The collector's store for several instances behind a load balancer: one PostgreSQL database.
///
/// Records go to `events`, partitioned by UTC day of their own `CREATE_TIME` and unique on
/// `(namespace, report_id, create_time)`: a record resent to any instance carries the same three
/// values and is stored once (see `docs/collector.md`). A batch is one `INSERT … SELECT FROM
/// unnest(…) ON CONFLICT DO NOTHING` answering how many rows were new (one transaction), its
/// rows sorted by that key so that concurrent duplicates cannot deadlock, run again on a
/// deadlock or serialization failure.
/// The schema is created or migrated by ``open(url:logger:options:)``; day partitions are made
/// ahead of time, on open and then hourly. The configuration document lives in `config`; every
/// save notifies the other instances (LISTEN/NOTIFY, with polling as a backstop).
///
/// ```swift
/// let storage = try await PostgresCollectorStorage.open(url: "postgres://hermes@db:5432/hermes", logger: logger)
/// let server = try await CollectorServer.start(configuration: configuration, storage: storage, logger: logger)
/// try await server.waitUntilStopped()
/// await storage.close()
/// ```
public final class PostgresCollectorStorage: CollectorStorage {
    /// What a store may tune beyond its URL.
    public struct Options: Sendable {
        /// The connections to the database, the configuration listener's included (default 8):
        /// opened at start and kept open (a fixed-size pool).
        public var maximumConnections = 8
        /// How many days ahead (and one behind) the day partitions are made (default 3).
        public var partitionDaysAhead = 3
        /// How often the saved configuration's revision is read, in case a notification was
        /// missed (default 2 s).
        public var configurationPollInterval: Duration = .seconds(2)
        /// How long ``PostgresCollectorStorage/open(url:logger:options:)`` waits for the
        /// database (default 10 s).
        public var openTimeout: Duration = .seconds(10)

        /// The defaults.
        public init() {}
    }

    package let client: PostgresClient
    let logger: Logger
    let options: Options
    private let tasks: [Task<Void, Never>]

    private init(client: PostgresClient, logger: Logger, options: Options, tasks: [Task<Void, Never>]) {
        self.client = client
        self.logger = logger
        self.options = options
        self.tasks = tasks
    }

    /// Connects, creates or migrates the schema, makes the day partitions around today, and
    /// starts the hourly partition upkeep. Call ``close()`` when done.
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database` (`?sslmode=disable|prefer|require|verify-full`).
    ///   - logger: where the store logs; never with passwords or record contents.
    ///   - options: pool size, partitions ahead, polling, the time allowed to connect.
    /// - Returns: the open store.
    /// - Throws: ``CollectorError/Code/storageFailed`` for a malformed URL, a database that does
    ///   not answer within `options.openTimeout`, or a schema that cannot be migrated.
    public static func open(url: String, logger: Logger, options: Options = Options()) async throws(CollectorError) -> PostgresCollectorStorage {
        let parsed = try PostgresURL(url)
        let client = PostgresClient(configuration: parsed.configuration(poolSize: options.maximumConnections), backgroundLogger: logger)
        let running = Task { await client.run() }
        // A handle for the start-up work and the upkeep; the store returned also owns the upkeep task.
        let storage = PostgresCollectorStorage(client: client, logger: logger, options: options, tasks: [running])
        do {
            try await PostgresErrors.withDeadline(options.openTimeout, "reach \(parsed.redacted)") {
                try await storage.migrate()
                try await storage.ensurePartitions(around: Self.now())
            }
        } catch {
            running.cancel()
            throw error
        }
        logger.info("PostgreSQL storage open", metadata: ["url": "\(parsed.redacted)"])
        let upkeep = Task { await storage.keepPartitions() }
        return PostgresCollectorStorage(client: client, logger: logger, options: options, tasks: [running, upkeep])
    }

    /// Stops the partition upkeep and closes every connection.
    public func close() async {
        for task in tasks.reversed() {
            task.cancel()
            await task.value
        }
    }

    public func store(_ batch: IngestBatch) async throws -> StoreOutcome {
        let rows = EventRows(batch)
        let stored = try await PostgresErrors.run("store the batch") {
            try await client.withConnection { connection in
                try await Self.insert(rows, on: connection, logger: logger)
            }
        }
        return StoreOutcome(stored: stored, duplicates: batch.records.count - stored)
    }

    /// Runs the insert statement for `rows` on `connection` (one implicit transaction).
    /// - Returns: how many rows were new.
    package static func insert(_ rows: EventRows, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var stored = 0
        for try await count in try await connection.execute(InsertEventsStatement(rows: rows), logger: logger) { stored = Int(count) }
        return stored
    }

    public func events(_ query: EventQuery) async throws -> EventPage {
        try await PostgresErrors.run("read events") {
            let (filter, binds) = query.postgresFilter
            // The sizes decide how many rows fit; then those rows are read. A row committed in
            // between can take the place of the last one: the page keeps its count.
            var sized = binds
            sized.append(query.limit + 1)
            let sizeSQL = """
                SELECT octet_length(meta) + COALESCE(octet_length(payload), 0) FROM events\(filter)
                ORDER BY \(query.sqlOrder) LIMIT $\(sized.count)
                """
            var sizes: [Int] = []
            for try await size in try await client.query(PostgresQuery(unsafeSQL: sizeSQL, binds: sized), logger: logger).decode(Int.self) {
                sizes.append(size)
            }
            let (count, hasMore) = EventPage.cut(sizes: sizes, limit: query.limit)
            var all = binds
            all.append(count)
            let sql = """
                SELECT \(Self.eventColumns) FROM events\(filter) ORDER BY \(query.sqlOrder) LIMIT $\(all.count)
                """
            let events = try await fetchEvents(sql, all)
            return EventPage(events: events, next: hasMore ? events.last.map(EventCursor.init(after:)) : nil)
        }
    }

    public func count(_ query: EventQuery) async throws -> Int {
        try await PostgresErrors.run("count events") {
            let (filter, binds) = query.postgresFilter
            let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM events\(filter)", binds: binds), logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    /// The columns ``fetchEvents(_:_:)`` reads, in its order.
    static let eventColumns = "namespace, report_id, monitor_type, create_time, meta, payload, device_id, batch_id, received_at, app_key_id, id"

    /// Runs a `SELECT` of ``eventColumns`` and reads the events it answers.
    func fetchEvents(_ sql: String, _ binds: PostgresBindings) async throws -> [StoredEvent] {
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        var events: [StoredEvent] = []
        for try await row in rows.decode(EventRow.self) {
            events.append(try Self.event(row))
        }
        return events
    }

    /// A row of ``eventColumns``, as postgres-nio decodes it.
    typealias EventRow = (String, String, String, Int64, String, ByteBuffer?, String?, String?, Int64, String?, Int64)

    /// A stored event from a row of ``eventColumns``, `id` last.
    static func event(_ row: EventRow) throws(CollectorError) -> StoredEvent {
        let meta: JSONValue
        do {
            meta = try JSONValue(parsing: Array(row.4.utf8))
        } catch {
            throw CollectorError(.storageFailed, "a stored meta line is not valid JSON: \(error.message)", underlying: error)
        }
        return StoredEvent(
            namespace: row.0, reportID: row.1, monitorType: row.2, createTime: row.3, meta: meta,
            payload: row.5.map { Array($0.readableBytesView) }, deviceID: row.6, batchID: row.7, receivedAt: row.8, appKeyID: row.9, id: row.10
        )
    }

    /// Milliseconds since 1970, now.
    package static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }
}
