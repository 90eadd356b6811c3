package import HermesCollector
package import HermesCollectorPostgres

/// A sync store that lists every outcome it recorded, as (client, sequence, applied): what the
/// sync torture's audit counts.
package protocol SyncOutcomeAudit: SyncStorage {
    func outcomes() async throws(CollectorError) -> [(clientID: String, sequence: Int64, applied: Bool)]
}

extension SQLiteSyncStorage: SyncOutcomeAudit {}
extension PostgresSyncStorage: SyncOutcomeAudit {}
