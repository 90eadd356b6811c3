import HermesCollector

/// Rules and firings for the alert tests.
enum AlertFixtures {
    static let now: Int64 = 1_795_400_000_000

    /// A rule with fixed id and secret, created at ``now``.
    static func rule(
        _ id: String = "rule-1", kind: AlertKind = .crashRate(threshold: 2, windowMinutes: 5), isEnabled: Bool = true, webhookURL: String? = nil
    ) -> AlertRule {
        AlertRule(
            id: id, draft: AlertRuleDraft(name: "Rule \(id)", kind: kind, isEnabled: isEnabled, webhookURL: webhookURL), secret: "secret-\(id)",
            createdBy: "ada", createdAt: now, updatedBy: "ada", updatedAt: now)
    }

    /// A firing of `rule` at `time` whose dedupe key is `key`.
    static func firing(_ id: String, of rule: AlertRule, key: String, time: Int64 = now, state: AlertPayload.State = .firing) -> AlertFiring {
        AlertFiring(
            payload: AlertPayload(id: id, rule: rule, state: state, value: 3, time: time), dedupeKey: key, delivery: AlertDelivery(status: .pending))
    }
}
