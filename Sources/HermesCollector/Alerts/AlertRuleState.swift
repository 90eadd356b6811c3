/// Where a rule's evaluation stands: its condition's status since when, and when it was last
/// evaluated. A rule never evaluated is ``Status/ok`` since its creation.
public struct AlertRuleState: Sendable, Hashable, Codable {
    /// Whether the condition holds.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The condition does not hold (a `newCrashGroup` rule is always ok).
        case ok
        /// The condition holds; the rule fired when it began.
        case firing
    }

    /// The rule.
    public var ruleID: String
    /// Whether the condition holds.
    public var status: Status
    /// Since when, in milliseconds since 1970.
    public var since: Int64
    /// When the rule was last evaluated, in milliseconds since 1970.
    public var evaluatedAt: Int64

    /// Creates a state.
    /// - Parameters:
    ///   - ruleID: the rule.
    ///   - status: whether the condition holds.
    ///   - since: since when, in milliseconds since 1970.
    ///   - evaluatedAt: when the rule was last evaluated.
    public init(ruleID: String, status: Status, since: Int64, evaluatedAt: Int64) {
        self.ruleID = ruleID
        self.status = status
        self.since = since
        self.evaluatedAt = evaluatedAt
    }

    /// The state of a rule never evaluated: ok since its creation.
    /// - Parameter rule: the rule.
    public init(never rule: AlertRule) {
        self.init(ruleID: rule.id, status: .ok, since: rule.createdAt, evaluatedAt: rule.createdAt)
    }
}
