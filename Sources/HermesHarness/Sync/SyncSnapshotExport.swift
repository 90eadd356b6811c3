package import HermesCollector
package import HermesSync
package import HermesWire

/// A collector's sync store written as a device snapshot (``SyncSnapshot``): `hermes sync
/// snapshot`, and the sync bench's `snapshot_start_s`.
package enum SyncSnapshotExport {
    /// Writes every live record of `storage` that every device may read (`schema`'s `everyone`
    /// read rules: a snapshot ships to all) at its current revision to a device database at `path`.
    /// - Returns: how many records, and the revision.
    package static func write(from storage: any SyncStorage, schema: SyncSchema, to path: String) async throws -> (records: Int, revision: Int64) {
        // The revision first: records written after it are in the file and come again in the
        // catch-up; none from before it can be missing.
        let revision = try await storage.overview(recent: 0, devices: 0).revision
        let anyone = SyncIdentity(clientID: "")
        let records = try await storage.liveRecords().filter { schema.type(named: $0.type)?.mayRead($0, by: anyone) ?? false }
        try SyncSnapshot.write(records: records, revision: revision, schema: schema, to: path)
        return (records.count, revision)
    }
}
