import GRDB

/// The store's tables (specification §5), created and evolved by GRDB migrations.
enum StoreSchema {
    /// The two record tables: rows without payload, and rows with one.
    enum Table: String, CaseIterable, Sendable, Hashable {
        case meta
        case payload
    }

    /// Row states.
    enum State: Int {
        case pending = 0
        case inFlight = 1
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            for table in Table.allCases {
                try db.execute(sql: """
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
            try db.execute(sql: """
                CREATE TABLE namespace_state (
                    namespace TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value INTEGER NOT NULL,
                    PRIMARY KEY (namespace, key)
                )
                """)
        }
        return migrator
    }
}
