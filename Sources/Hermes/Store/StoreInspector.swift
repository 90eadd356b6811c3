public import Foundation
import GRDB

/// Reads a client's store without changing it: what `hermes inspect` prints.
///
/// ```swift
/// let report = try StoreInspector.inspect(storageDirectory: dir)
/// for group in report.groups { print(group.namespace, group.table, group.rows) }
/// ```
public enum StoreInspector: Sendable {
    /// Rows of one namespace in one table.
    public struct Group: Sendable, Hashable {
        /// The namespace.
        public var namespace: String
        /// `meta` or `payload`.
        public var table: String
        /// How many rows.
        public var rows: Int
        /// Their total `size` in bytes (meta plus payload).
        public var bytes: Int
        /// The oldest and newest `created_time` (ms since 1970).
        public var oldest: Int64
        /// See ``oldest``.
        public var newest: Int64
    }

    /// What the store holds.
    public struct Report: Sendable, Hashable {
        /// One entry per namespace and table, sorted.
        public var groups: [Group]
        /// The database file's size, without its WAL.
        public var fileBytes: Int
        /// The page size.
        public var pageSize: Int
        /// Pages in the file.
        public var pageCount: Int
        /// Free pages that incremental vacuum can return.
        public var freePages: Int
    }

    /// Inspects the store in `storageDirectory`.
    /// - Throws: when there is no store there, or it cannot be read.
    public static func inspect(storageDirectory: URL) throws -> Report {
        let path = storageDirectory.appendingPathComponent(RecordStore.fileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw HermesError(.storeUnavailable, "no Hermes store at \(path)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        // A running client may be writing: wait for it rather than fail.
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var groups: [Group] = []
            for table in StoreSchema.Table.allCases {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT namespace, COUNT(*) AS n, SUM(size) AS bytes, MIN(created_time) AS oldest, MAX(created_time) AS newest
                        FROM \(table.rawValue) GROUP BY namespace
                        """)
                for row in rows {
                    groups.append(
                        Group(
                            namespace: row["namespace"], table: table.rawValue,
                            rows: row["n"], bytes: row["bytes"], oldest: row["oldest"], newest: row["newest"]
                        ))
                }
            }
            groups.sort { ($0.namespace, $0.table) < ($1.namespace, $1.table) }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return Report(
                groups: groups,
                fileBytes: (attributes?[.size] as? NSNumber)?.intValue ?? 0,
                pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0,
                pageCount: try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
                freePages: try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            )
        }
    }
}
