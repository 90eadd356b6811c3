import Foundation
import GRDB
public import HermesWire

/// A device database prepared ahead of time, to ship in an app's bundle: every live record of
/// the data set at one revision, in the tables a ``SyncClient`` keeps, compacted. A device that
/// starts from it (``SyncClient/init(path:clientID:schema:transport:maximumChangeSets:snapshot:)``)
/// has the data set at once and catches up from that revision only.
///
/// `hermes sync snapshot --storage … --schema … --out FILE` writes one from a collector's store.
///
/// ```swift
/// try SyncSnapshot.write(records: records, revision: revision, schema: schema, to: "/tmp/teams.sqlite")
/// ```
public enum SyncSnapshot: Sendable {
    /// Writes a device database at `path` (replacing any file there) holding `records` at
    /// `revision`: no client id yet (the device that starts from it takes its own), nothing
    /// queued, checkpointed and vacuumed to one file.
    /// - Parameters:
    ///   - records: the live records (tombstones are skipped), read after `revision` was.
    ///   - revision: the server's revision when the records were read; the device asks for what
    ///     came after it (records written since are sent again, which is harmless).
    ///   - schema: the schema of the app that will ship it.
    ///   - path: the file to write.
    /// - Throws: ``SyncError/Code/storageFailed`` if the file cannot be written.
    public static func write(records: [SyncRecord], revision: Int64, schema: SyncSchema, to path: String) throws(SyncError) {
        let tables = SyncTables(schema: schema)
        try storage {
            try? FileManager.default.removeItem(atPath: path)
            let database = try DatabaseQueue(path: path)
            try tables.create(in: database, clientID: "")
            try database.write { db in
                for record in records where !record.isDeleted { try tables.save(record, in: db) }
                try SyncDeviceState.answered(maxRevision: revision, cursor: nil, in: db)
            }
            try database.vacuum()
            try database.close()
        }
    }
}
