import HermesCollector
import HermesWire

/// An in-memory SQLite store that fails every call while ``isDown`` is set: a database that
/// went away.
final class SwitchableStorage: CollectorStorage {
    let base: SQLiteCollectorStorage
    private let down = Locked(false)
    /// The reads of events that succeed before the store goes down by itself; `nil`: no limit.
    let eventReadsLeft = Locked<Int?>(nil)

    init() throws {
        base = try .inMemory()
    }

    var isDown: Bool {
        get { down.withLock { $0 } }
        set { down.withLock { $0 = newValue } }
    }

    func checked<T>(_ work: () async throws -> T) async throws -> T {
        if isDown { throw CollectorError(.storageFailed, "the test store is down") }
        return try await work()
    }

    func store(_ batch: IngestBatch) async throws -> StoreOutcome { try await checked { try await base.store(batch) } }
    func events(_ query: EventQuery) async throws -> EventPage {
        let goesDown = eventReadsLeft.withLock { left -> Bool in
            guard let reads = left else { return false }
            left = reads - 1
            return reads <= 0
        }
        if goesDown { isDown = true }
        return try await checked { try await base.events(query) }
    }
    func count(_ query: EventQuery) async throws -> Int { try await checked { try await base.count(query) } }
    func loadConfiguration() async throws -> ConfigurationDocument? { try await checked { try await base.loadConfiguration() } }
    func saveConfiguration(_ document: ConfigurationDocument) async throws { try await checked { try await base.saveConfiguration(document) } }
    func removeDays(before cutoff: Int64) async throws -> RetentionOutcome { try await checked { try await base.removeDays(before: cutoff) } }
    func storageBytes() async throws -> Int? { try await checked { try await base.storageBytes() } }
    func erase(_ subject: ErasureSubject) async throws -> Int { try await checked { try await base.erase(subject) } }

    // Alerts are not switched off: the tests of this store are about records and the configuration.
    func alertRules() async throws(CollectorError) -> [AlertRule] { try await base.alertRules() }
    func alertRule(id: String) async throws(CollectorError) -> AlertRule? { try await base.alertRule(id: id) }
    func saveAlertRule(_ rule: AlertRule) async throws(CollectorError) { try await base.saveAlertRule(rule) }
    func deleteAlertRule(id: String) async throws(CollectorError) -> Bool { try await base.deleteAlertRule(id: id) }
    func alertStates() async throws(CollectorError) -> [String: AlertRuleState] { try await base.alertStates() }
    func markAlertEvaluated(ruleID: String, at now: Int64) async throws(CollectorError) { try await base.markAlertEvaluated(ruleID: ruleID, at: now) }
    func recordAlertFiring(_ firing: AlertFiring, state: AlertRuleState?) async throws(CollectorError) -> Bool {
        try await base.recordAlertFiring(firing, state: state)
    }
    func updateAlertDelivery(firingID: String, _ delivery: AlertDelivery) async throws(CollectorError) {
        try await base.updateAlertDelivery(firingID: firingID, delivery)
    }
    func alertFirings(ruleID: String?, limit: Int) async throws(CollectorError) -> [AlertFiring] {
        try await base.alertFirings(ruleID: ruleID, limit: limit)
    }
    func claimAlertEvaluation(holder: String, now: Int64, until: Int64) async throws(CollectorError) -> Bool {
        try await base.claimAlertEvaluation(holder: holder, now: now, until: until)
    }

    func groupCrashes(limit: Int) async throws -> Int { try await checked { try await base.groupCrashes(limit: limit) } }
    func crashGroups(since: Int64?, until: Int64?, limit: Int) async throws -> [CrashGroupSummary] {
        try await checked { try await base.crashGroups(since: since, until: until, limit: limit) }
    }
    func crashGroup(signature: String, since: Int64?, until: Int64?, bucket: Int64) async throws -> CrashGroupDetail? {
        try await checked { try await base.crashGroup(signature: signature, since: since, until: until, bucket: bucket) }
    }
}
