public import HermesCollector
import PostgresNIO

extension PostgresSyncStorage {
    public func overview(recent: Int, devices: Int) async throws(CollectorError) -> SyncOverview {
        typealias Queries = SyncOverview.Queries
        return try await run("read the sync overview") {
            var revision: Int64 = 0
            for try await value in try await client.query(PostgresQuery(unsafeSQL: Queries.revision), logger: logger).decode(Int64.self) {
                revision = value
            }
            var types: [SyncOverview.TypeCount] = []
            let typeRows = try await client.query(PostgresQuery(unsafeSQL: Queries.types), logger: logger)
            for try await (type, live, deleted) in typeRows.decode((String, Int64, Int64).self) {
                types.append(SyncOverview.TypeCount(type: type, live: live, deleted: deleted))
            }
            var limit = PostgresBindings()
            limit.append(recent)
            var outcomes: [SyncOverview.Outcome] = []
            let outcomeRows = try await client.query(
                PostgresQuery(unsafeSQL: PostgresCollectorStorage.numbered(Queries.recent), binds: limit), logger: logger)
            for try await (client, sequence, revision, outcome, received) in outcomeRows.decode((String, Int64, Int64?, String, Int64).self) {
                outcomes.append(
                    SyncOverview.Outcome(clientID: client, sequence: sequence, revision: revision, outcome: outcome, receivedAt: received))
            }
            var deviceLimit = PostgresBindings()
            deviceLimit.append(devices)
            var seen: [SyncOverview.Device] = []
            let deviceRows = try await client.query(
                PostgresQuery(unsafeSQL: PostgresCollectorStorage.numbered(Queries.devices), binds: deviceLimit), logger: logger)
            for try await (client, last, count, conflicts) in deviceRows.decode((String, Int64, Int64, Int64).self) {
                seen.append(SyncOverview.Device(clientID: client, lastExchange: last, changeSets: count, conflicts: conflicts))
            }
            return SyncOverview(revision: revision, types: types, recent: outcomes, devices: seen)
        }
    }
}
