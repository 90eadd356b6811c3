import HermesCollector

extension SwitchableStorage {
    func consoleUsers() async throws -> [ConsoleUser] { try await checked { try await base.consoleUsers() } }
    func consoleUser(named name: String) async throws -> ConsoleUser? { try await checked { try await base.consoleUser(named: name) } }
    func saveConsoleUser(_ user: ConsoleUser) async throws { try await checked { try await base.saveConsoleUser(user) } }
    func removeConsoleUser(named name: String) async throws -> Bool { try await checked { try await base.removeConsoleUser(named: name) } }
    func createConsoleSession(_ session: ConsoleSession, now: Int64) async throws {
        try await checked { try await base.createConsoleSession(session, now: now) }
    }
    func consoleSession(tokenHash: String, now: Int64) async throws -> ConsoleSession? {
        try await checked { try await base.consoleSession(tokenHash: tokenHash, now: now) }
    }
    func removeConsoleSession(tokenHash: String) async throws { try await checked { try await base.removeConsoleSession(tokenHash: tokenHash) } }
    func appendConfigurationChange(_ change: ConfigurationChange) async throws {
        try await checked { try await base.appendConfigurationChange(change) }
    }
    func configurationChanges(namespace: String?, limit: Int) async throws -> [ConfigurationChange] {
        try await checked { try await base.configurationChanges(namespace: namespace, limit: limit) }
    }
    func configurationChange(id: Int64) async throws -> ConfigurationChange? { try await checked { try await base.configurationChange(id: id) } }
    func arrivals(_ query: EventQuery, receivedSince: Int64) async throws -> [StoredEvent] {
        try await checked { try await base.arrivals(query, receivedSince: receivedSince) }
    }
    func recordMinutes(since minute: Int64) async throws -> [RecordMinute] { try await checked { try await base.recordMinutes(since: minute) } }
    func performanceRollup(width: Int64, from: Int64, until: Int64, slotMinutes: Int64) async throws -> [PerformanceRollupRow] {
        try await checked { try await base.performanceRollup(width: width, from: from, until: until, slotMinutes: slotMinutes) }
    }
    func deliveryLosses(sinceHour: Int64) async throws -> [DeliveryLoss] { try await checked { try await base.deliveryLosses(sinceHour: sinceHour) } }
    func queuedOnDevices(reportedSince: Int64) async throws -> QueuedOnDevices {
        try await checked { try await base.queuedOnDevices(reportedSince: reportedSince) }
    }
}
