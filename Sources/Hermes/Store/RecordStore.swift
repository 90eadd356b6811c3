import Foundation
import GRDB
import HermesWire
import Logging

/// The SQLite store of one client (specification §5): a WAL database with the meta and payload tables.
///
/// Not thread-safe by design: only the ``StoreWriter``'s queue calls it, so every write in the
/// SDK goes through one writer, and row counts per namespace can be kept in memory.
final class RecordStore {
    static let fileName = "hermes.sqlite"
    static let evictionChunk = 100

    let pool: DatabasePool
    private(set) var counts: [String: Int] = [:]
    /// The ids of rows claimed by a batch whose upload has not ended, per table: later claims
    /// skip them and eviction takes them last. Kept in memory only, so claiming a batch writes
    /// nothing; after a restart nothing is in flight and every row is sent again (the collector
    /// keeps a record once per `REPORT_ID`).
    var inFlight: [StoreSchema.Table: Set<Int64>] = [:]

    private init(pool: DatabasePool) throws {
        self.pool = pool
        counts = try pool.read { try Self.rowsPerNamespace($0) }
    }

    /// A corrupt store file moved aside by ``open(in:now:logger:)``.
    struct Quarantine: Sendable {
        /// Where the file now is.
        var path: String
        /// Its rows per namespace, or `nil` when it cannot be read at all.
        var rows: [String: Int]?
    }

    /// Opens (or creates) the store in `directory`. A file that is not a database, or is
    /// corrupt, is moved aside as `hermes.sqlite.corrupt-<ms>` (kept for diagnosis) and a new
    /// store is created in its place.
    /// - Parameter knownCorrupt: the file failed a write as corrupt: move it aside even if it opens.
    /// - Returns: the store, and the file moved aside if there was one.
    /// - Throws: when the folder or the file cannot be created or opened at all.
    static func open(in directory: URL, now: Int64, knownCorrupt: Bool = false, logger: Logger) throws -> (RecordStore, Quarantine?) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        if !knownCorrupt {
            do {
                return (try openPool(at: path), nil)
            } catch let error as DatabaseError where isCorruption(error) {}
        }
        let quarantine = "\(path).corrupt-\(now)"
        logger.error("hermes: the store is corrupt; moved it aside and started a new one", metadata: ["quarantine": "\(quarantine)"])
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.moveItem(atPath: path + suffix, toPath: quarantine + suffix)
        }
        return (try openPool(at: path), Quarantine(path: quarantine, rows: countRows(inCorruptFile: quarantine)))
    }

    /// Whether SQLite found the file damaged or not a database at all.
    static func isCorruption(_ error: DatabaseError) -> Bool {
        [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode)
    }

    /// Rows per namespace in a corrupt file, if SQLite can still read its tables (scanned
    /// without their indexes, which may be what is damaged).
    private static func countRows(inCorruptFile path: String) -> [String: Int]? {
        var configuration = Configuration()
        configuration.readonly = true
        return try? DatabaseQueue(path: path, configuration: configuration).read { try rowsPerNamespace($0, indexed: false) }
    }

    private static func rowsPerNamespace(_ db: Database, indexed: Bool = true) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in StoreSchema.Table.allCases {
            let source = indexed ? table.rawValue : "\(table.rawValue) NOT INDEXED"
            for row in try Row.fetchAll(db, sql: "SELECT namespace, COUNT(*) AS n FROM \(source) GROUP BY namespace") {
                counts[row["namespace"], default: 0] += row["n"] as Int
            }
        }
        return counts
    }

    /// Each connection's page cache, in KiB.
    static let cacheKiB = 512

    /// How SQLite treats the content of deleted rows, chosen here rather than left to how the
    /// system's SQLite was built (Debian's turns `secure_delete` on for every connection, so each
    /// uploaded row's deletion wrote zeros over it: another page write per row deleted). `FAST`
    /// zeroes deleted content where that costs no more I/O and leaves freed pages as they are;
    /// ``eraseAll()`` turns it fully on for the erasure of every row, then back to this.
    static let secureDelete = "FAST"

    private static func openPool(at path: String) throws -> RecordStore {
        var configuration = Configuration()
        configuration.label = "hermes.store"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // Incremental auto-vacuum can only be chosen before the file is first written
            // (before WAL mode and the first table); on an existing store this does nothing.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
            // A page cache of 512 KiB per connection instead of SQLite's 2 MiB: the writer
            // appends at the right edge of each index, so its working set is small, and an
            // app's resident memory is what the SDK must spare.
            try db.execute(sql: "PRAGMA cache_size = -\(RecordStore.cacheKiB)")
            try db.execute(sql: "PRAGMA secure_delete = \(RecordStore.secureDelete)")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        do {
            try StoreSchema.migrator.migrate(pool)
            return try RecordStore(pool: pool)
        } catch {
            try? pool.close()
            throw error
        }
    }

    func close() {
        try? pool.close()
    }

    /// Keeps the in-memory row count in step with rows deleted elsewhere.
    func adjustCount(_ namespace: String, by delta: Int) {
        counts[namespace, default: 0] += delta
    }

    /// Inserts records in one transaction (group commit), with the journal cursors that say
    /// they are in, so that a crash can neither lose them nor read them again. A record whose
    /// `REPORT_ID` is already stored is skipped, so retrying a batch cannot duplicate it.
    /// - Parameters:
    ///   - journalCursors: where each journal segment read for this batch now resumes.
    ///   - forgetting: cursors of segments deleted since, to drop.
    func insert(_ records: [PendingRecord], journalCursors: [JournalCursor] = [], forgetting: [Int64] = []) throws {
        var added: [String: Int] = [:]
        try pool.write { db in
            let metaInsert = try db.cachedStatement(sql: StoreSchema.insertSQL(into: .meta))
            let payloadInsert = try db.cachedStatement(sql: StoreSchema.insertSQL(into: .payload))
            for record in records {
                try Self.execute(record.payload == nil ? metaInsert : payloadInsert, binding: record, in: db)
                if db.changesCount > 0 { added[record.namespace, default: 0] += 1 }
            }
            try Self.save(journalCursors, forgetting: forgetting, in: db)
        }
        for (namespace, count) in added { counts[namespace, default: 0] += count }
    }

    /// Evicts the oldest rows of `namespace`, 100 at a time, until it holds at most `limit`:
    /// crash rows (``MonitorType/crashTypes(in:)``) last, and rows in flight only when no
    /// other is left (specification §5).
    /// - Returns: how many rows were evicted.
    func evict(namespace: String, limit: Int) throws -> Int {
        let crashTypes = MonitorType.crashTypes(in: namespace)
        var evicted = 0
        while counts[namespace, default: 0] > limit {
            let claimed = inFlight.values.reduce(0) { $0 + $1.count }
            let deleted = try pool.write { db in
                let candidates = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT t, id FROM (
                            SELECT 'meta' AS t, id, created_time, monitor_type IN (:crash, :bizCrash) AS crash FROM meta WHERE namespace = :ns
                            UNION ALL
                            SELECT 'payload' AS t, id, created_time, monitor_type IN (:crash, :bizCrash) AS crash FROM payload WHERE namespace = :ns
                        ) ORDER BY crash, created_time, id LIMIT :candidates
                        """,
                    arguments: ["ns": namespace, "crash": crashTypes[0], "bizCrash": crashTypes[1], "candidates": Self.evictionChunk + claimed])
                let victims = candidates.map { (table: StoreSchema.Table(rawValue: $0["t"])!, id: $0["id"] as Int64) }
                let (waiting, sent) = (victims.filter { !isInFlight($0) }, victims.filter(isInFlight))
                let chosen = (waiting + sent).prefix(Self.evictionChunk)
                for victim in chosen {
                    try db.execute(sql: "DELETE FROM \(victim.table.rawValue) WHERE id = ?", arguments: [victim.id])
                }
                return chosen.count
            }
            guard deleted > 0 else { break }
            counts[namespace, default: 0] -= deleted
            evicted += deleted
        }
        return evicted
    }

    private func isInFlight(_ row: (table: StoreSchema.Table, id: Int64)) -> Bool {
        inFlight[row.table]?.contains(row.id) == true
    }

    /// Runs the start-up rules of specification §5 for each configured namespace and each
    /// namespace holding rows no configuration names.
    /// - Returns: the rows deleted, per namespace and reason.
    func housekeep(_ plan: HousekeepingPlan, now: Int64, appVersion: String) throws -> [String: [LossReason: Int]] {
        let rules = plan.rules(stored: counts.filter { $0.value > 0 }.keys)
        var losses: [String: [LossReason: Int]] = [:]
        try pool.write { db in
            for (namespace, rule) in rules {
                let deletions = rule.deletions(now: now, appVersion: appVersion)
                guard !deletions.isEmpty else { continue }
                for table in StoreSchema.Table.allCases {
                    for (reason, ids) in try Self.housekeepingVictims(of: deletions, namespace: namespace, in: table, db) {
                        for chunk in stride(from: 0, to: ids.count, by: Self.deletionChunk) {
                            let part = Array(ids[chunk..<min(ids.count, chunk + Self.deletionChunk)])
                            try db.execute(
                                sql: "DELETE FROM \(table.rawValue) WHERE id IN (\(databaseQuestionMarks(count: part.count)))",
                                arguments: StatementArguments(part))
                            losses[namespace, default: [:]][reason, default: 0] += db.changesCount
                        }
                    }
                }
            }
        }
        for (namespace, reasons) in losses { counts[namespace, default: 0] -= reasons.values.reduce(0, +) }
        return losses
    }

    /// The most ids one `DELETE … WHERE id IN (…)` of housekeeping names.
    private static let deletionChunk = 500

    /// The rows of `namespace` in `table` that `deletions` remove, by reason, found in one pass
    /// over the namespace's rows (each rule's own `DELETE` would read every row again: several
    /// full passes over a store that may hold a burst of a hundred thousand rows). A row that
    /// meets several rules goes under the first, as if the rules ran one after the other.
    private static func housekeepingVictims(
        of deletions: [(LossReason, String, StatementArguments)], namespace: String, in table: StoreSchema.Table, _ db: Database
    ) throws -> [(LossReason, [Int64])] {
        let cases = deletions.indices.map { "WHEN \(deletions[$0].1) THEN \($0)" }.joined(separator: " ")
        var arguments = StatementArguments()
        for (_, _, ruleArguments) in deletions { arguments += ruleArguments }
        arguments += [namespace]
        var ids = [[Int64]](repeating: [], count: deletions.count)
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT id, rule FROM (SELECT id, CASE \(cases) END AS rule FROM \(table.rawValue) WHERE namespace = ?) WHERE rule IS NOT NULL",
            arguments: arguments)
        while let row = try rows.next() { ids[row[1] as Int].append(row[0]) }
        return zip(deletions, ids).compactMap { deletion, ids in ids.isEmpty ? nil : (deletion.0, ids) }
    }

    /// Returns free pages to the file system (`auto_vacuum = INCREMENTAL`), instead of a full
    /// `VACUUM` that would rewrite the whole file.
    /// - Returns: the free pages reclaimed.
    @discardableResult
    func reclaimFreePages() throws -> Int {
        try pool.writeWithoutTransaction { db in
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            if free > 0 { try db.execute(sql: "PRAGMA incremental_vacuum") }
            return free
        }
    }
}
