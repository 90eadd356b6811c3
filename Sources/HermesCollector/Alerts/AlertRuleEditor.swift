/// Creates, changes and deletes alert rules in a store: what the console's Alerts page calls
/// when an editor saves its form.
///
/// Drafts are validated first; the rule keeps its id and secret across changes. Reads go to
/// the ``AlertStorage`` directly (``AlertStorage/alertRules()``, ``AlertStorage/alertFirings(ruleID:limit:)``).
///
/// ```swift
/// let editor = AlertRuleEditor(storage: storage)
/// let rule = try await editor.create(AlertRuleDraft(name: "Crash spike", kind: .crashRate(threshold: 10, windowMinutes: 5)), by: "ada")
/// ```
public struct AlertRuleEditor: Sendable {
    private let storage: any AlertStorage
    private let wallClock: @Sendable () -> Int64

    /// Creates an editor.
    /// - Parameters:
    ///   - storage: where the rules live.
    ///   - wallClock: milliseconds since 1970, stamped on changes (the system's clock by default).
    public init(storage: any AlertStorage, wallClock: @escaping @Sendable () -> Int64 = CollectorConfiguration.systemWallClock) {
        self.storage = storage
        self.wallClock = wallClock
    }

    /// Stores a new rule made from `draft`, with a new id and secret.
    /// - Parameters:
    ///   - draft: the editor's fields.
    ///   - user: who creates it.
    /// - Returns: the stored rule.
    /// - Throws: ``CollectorError/Code/invalidAlertRule`` for a draft that is not valid;
    ///   ``CollectorError/Code/storageFailed`` if the store fails.
    public func create(_ draft: AlertRuleDraft, by user: String) async throws(CollectorError) -> AlertRule {
        var generator = SystemRandomNumberGenerator()
        let rule = try AlertRule.create(draft, by: user, at: wallClock(), using: &generator)
        try await storage.saveAlertRule(rule)
        return rule
    }

    /// Replaces the editor's fields of the rule with `id`.
    /// - Parameters:
    ///   - id: the rule's id.
    ///   - draft: the editor's new fields.
    ///   - user: who changes it.
    /// - Returns: the stored rule.
    /// - Throws: ``CollectorError/Code/alertRuleNotFound`` if no rule has `id`;
    ///   ``CollectorError/Code/invalidAlertRule`` for a draft that is not valid;
    ///   ``CollectorError/Code/storageFailed`` if the store fails.
    public func update(id: String, with draft: AlertRuleDraft, by user: String) async throws(CollectorError) -> AlertRule {
        guard let rule = try await storage.alertRule(id: id) else { throw Self.notFound(id) }
        let updated = try rule.updated(with: draft, by: user, at: wallClock())
        try await storage.saveAlertRule(updated)
        return updated
    }

    /// Deletes the rule with `id` and its state; its firings stay in the history.
    /// - Parameter id: the rule's id.
    /// - Throws: ``CollectorError/Code/alertRuleNotFound`` if no rule has `id`;
    ///   ``CollectorError/Code/storageFailed`` if the store fails.
    public func delete(id: String) async throws(CollectorError) {
        guard try await storage.deleteAlertRule(id: id) else { throw Self.notFound(id) }
    }

    private static func notFound(_ id: String) -> CollectorError {
        CollectorError(.alertRuleNotFound, "no alert rule has the id \(id)")
    }
}
