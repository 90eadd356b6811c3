package import GRDB
import HermesWire

/// The store's tables (specification §5), created and evolved by GRDB migrations.
package enum StoreSchema {
    /// The two record tables: rows without payload, and rows with one.
    package enum Table: String, CaseIterable, Sendable, Hashable {
        case meta
        case payload
    }

    /// The statement that inserts one record into `table`, its arguments in column order
    /// (`report_id`, `namespace`, `monitor_type`, `is_biz`, `created_time`, `app_version`,
    /// `meta`, `size`, then `payload` for the payload table). A `REPORT_ID` already stored is
    /// skipped, so a batch retried after an uncertain failure cannot be stored twice.
    package static func insertSQL(into table: Table) -> String {
        let columns = "report_id, namespace, monitor_type, is_biz, created_time, app_version, meta, size" + (table == .payload ? ", payload" : "")
        let values = Array(repeating: "?", count: table == .payload ? 9 : 8).joined(separator: ", ")
        return "INSERT OR IGNORE INTO \(table.rawValue) (\(columns)) VALUES (\(values))"
    }

    /// Creates the tables and their indexes, and evolves them from any earlier version.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            for table in Table.allCases {
                try db.execute(
                    sql: """
                        CREATE TABLE \(table.rawValue) (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            report_id TEXT NOT NULL UNIQUE,
                            namespace TEXT NOT NULL,
                            monitor_type TEXT NOT NULL,
                            is_biz INTEGER NOT NULL,
                            created_time INTEGER NOT NULL,
                            app_version TEXT NOT NULL,
                            meta TEXT NOT NULL,
                            size INTEGER NOT NULL,
                            state INTEGER NOT NULL DEFAULT 0,
                            batch_id TEXT,
                            attempts INTEGER NOT NULL DEFAULT 0\(table == .payload ? ",\n    payload BLOB NOT NULL" : "")
                        )
                        """)
                // The upload query: a namespace's pending crash rows by id, then the rest by id.
                try db.execute(sql: "CREATE INDEX \(table.rawValue)_upload ON \(table.rawValue)(namespace, state, monitor_type, id)")
                try db.execute(sql: "CREATE INDEX \(table.rawValue)_oldest ON \(table.rawValue)(namespace, state, id)")
                // Housekeeping: expiry by time within a namespace.
                try db.execute(sql: "CREATE INDEX \(table.rawValue)_age ON \(table.rawValue)(namespace, created_time)")
            }
            // Per-namespace facts the SDK keeps: the cellular traffic window.
            try db.execute(
                sql: """
                    CREATE TABLE namespace_state (
                        namespace TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value INTEGER NOT NULL,
                        PRIMARY KEY (namespace, key)
                    )
                    """)
        }
        migrator.registerMigration("journal") { db in
            // Where the writer resumes in each journal segment, saved with the records it read.
            try db.execute(
                sql: """
                    CREATE TABLE \(journalCursorTable) (
                        segment INTEGER PRIMARY KEY,
                        offset INTEGER NOT NULL
                    )
                    """)
        }
        migrator.registerMigration("upload queue") { db in
            // Uploads claim rows in memory (``RecordStore``), so a row is written twice (insert,
            // delete) instead of four times, and no index holds a state that changes: the two
            // indexes led by (namespace, state) give way to one in id order and a small one of
            // crash rows. Expiry by time scans a namespace in id order instead of keeping an
            // index on every insert for a rule that runs at start.
            for table in Table.allCases {
                let name = table.rawValue
                for index in ["upload", "oldest", "age"] { try db.execute(sql: "DROP INDEX \(name)_\(index)") }
                try db.execute(sql: "ALTER TABLE \(name) DROP COLUMN state")
                try db.execute(sql: "ALTER TABLE \(name) DROP COLUMN batch_id")
                try db.execute(sql: "CREATE INDEX \(name)_queue ON \(name)(namespace, id)")
                try db.execute(sql: "CREATE INDEX \(name)_crash ON \(name)(namespace, id) WHERE \(crashRowCondition)")
            }
        }
        return migrator
    }

    /// The condition of the partial index of crash rows: every crash type
    /// (``MonitorType/crashTypes(in:)``) ends with `appCrash`. A query that names it word for
    /// word can use the index.
    static let crashRowCondition = "monitor_type GLOB '*\(MonitorType.appCrash)'"

    /// Journal cursors: a segment's identity and the offset its next unread frame starts at.
    static let journalCursorTable = "journal_cursor"
}
