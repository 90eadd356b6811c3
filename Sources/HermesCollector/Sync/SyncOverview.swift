public import HermesWire

/// What the console's sync page shows: the current revision, the records of each type, the
/// recent change sets and each device's last exchange.
public struct SyncOverview: Sendable, Hashable {
    /// One type's records.
    public struct TypeCount: Sendable, Hashable {
        /// The type.
        public var type: String
        /// Live records.
        public var live: Int64
        /// Deleted records still kept as tombstones.
        public var deleted: Int64

        /// Creates a count.
        public init(type: String, live: Int64, deleted: Int64) {
            self.type = type
            self.live = live
            self.deleted = deleted
        }
    }

    /// One change set's recorded outcome.
    public struct Outcome: Sendable, Hashable {
        /// The device that sent it.
        public var clientID: String
        /// Its sequence number on that device.
        public var sequence: Int64
        /// The revision it made, or `nil` for a conflict.
        public var revision: Int64?
        /// Why it was refused, or `nil` when applied.
        public var conflictReason: String?
        /// How many records it touched.
        public var entries: Int
        /// When the collector received it, in milliseconds since 1970.
        public var receivedAt: Int64

        /// Reads an outcome as the store keeps it (`outcome`: the answered change set's JSON).
        public init(clientID: String, sequence: Int64, revision: Int64?, outcome: String, receivedAt: Int64) {
            self.clientID = clientID
            self.sequence = sequence
            self.revision = revision
            self.receivedAt = receivedAt
            let json = try? JSONValue(parsing: Array(outcome.utf8))
            conflictReason = json?["conflict"]?.boolValue == true ? json?["reason"]?.stringValue ?? "unknown" : nil
            if case .array(let entries)? = json?["entries"] { self.entries = entries.count } else { entries = 0 }
        }
    }

    /// One device's exchanges.
    public struct Device: Sendable, Hashable {
        /// The device's client id.
        public var clientID: String
        /// When its last change set arrived, in milliseconds since 1970.
        public var lastExchange: Int64
        /// Change sets it sent that are still in the history.
        public var changeSets: Int64
        /// How many of them were refused.
        public var conflicts: Int64

        /// Creates a device row.
        public init(clientID: String, lastExchange: Int64, changeSets: Int64, conflicts: Int64) {
            self.clientID = clientID
            self.lastExchange = lastExchange
            self.changeSets = changeSets
            self.conflicts = conflicts
        }
    }

    /// The data set's current revision.
    public var revision: Int64
    /// Records per type, by type.
    public var types: [TypeCount]
    /// The newest change sets first.
    public var recent: [Outcome]
    /// The devices, the most recently seen first.
    public var devices: [Device]

    /// Creates an overview.
    public init(revision: Int64, types: [TypeCount], recent: [Outcome], devices: [Device]) {
        self.revision = revision
        self.types = types
        self.recent = recent
        self.devices = devices
    }

    /// The queries both stores run (`?` placeholders), in the order of the fields.
    package enum Queries {
        package static let revision = "SELECT revision FROM sync_state WHERE id = 1"
        package static let types = """
            SELECT type, SUM(CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END), SUM(CASE WHEN deleted_at IS NULL THEN 0 ELSE 1 END)
            FROM sync_records GROUP BY type ORDER BY type
            """
        /// Binds the most outcomes to read.
        package static let recent = "SELECT client_id, sequence, revision, outcome, received_at FROM sync_outcomes ORDER BY received_at DESC LIMIT ?"
        /// Binds the most devices to read.
        package static let devices = """
            SELECT client_id, MAX(received_at), COUNT(*), SUM(CASE WHEN outcome LIKE '%"conflict":true%' THEN 1 ELSE 0 END)
            FROM sync_outcomes GROUP BY client_id ORDER BY 2 DESC LIMIT ?
            """
    }
}
