/// Where a collector keeps its alert rules, their evaluation state and their firing history.
///
/// Every ``CollectorStorage`` is one: ``SQLiteCollectorStorage`` and `PostgresCollectorStorage`
/// keep alerts in tables of their own beside the records.
///
/// Contract for implementers:
/// - ``saveAlertRule(_:)`` inserts or replaces by id; ``deleteAlertRule(id:)`` removes the rule
///   and its state (its firings stay, as history).
/// - ``recordAlertFiring(_:state:)`` inserts the firing and, if it was new, writes `state`, in
///   one transaction; a firing whose ``AlertFiring/dedupeKey`` is already stored is not inserted
///   and changes nothing, whichever collector sharing the store recorded it (a unique key, so two
///   instances recording at once store it once). It answers whether the firing was new.
/// - ``markAlertEvaluated(ruleID:at:)`` changes only the evaluation time (making an ok state if
///   there is none): the status changes only with a firing.
/// - ``alertFirings(ruleID:limit:)`` returns the newest first (by time, then recording order).
/// - ``claimAlertEvaluation(holder:now:until:)`` grants one holder at a time, across every
///   collector sharing the store, until its claim expires.
/// - Errors are ``CollectorError/Code/storageFailed`` and never contain a secret or a payload.
///
/// ```swift
/// let rule = try AlertRule.create(draft, by: "ada", at: now, using: &generator)
/// try await storage.saveAlertRule(rule)
/// let history = try await storage.alertFirings(ruleID: rule.id, limit: 50)
/// ```
public protocol AlertStorage: Sendable {
    /// Every alert rule, oldest first.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func alertRules() async throws(CollectorError) -> [AlertRule]

    /// The rule with `id`, or `nil`.
    /// - Parameter id: the rule's id.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func alertRule(id: String) async throws(CollectorError) -> AlertRule?

    /// Inserts `rule`, or replaces the rule with its id.
    /// - Parameter rule: the rule, validated.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func saveAlertRule(_ rule: AlertRule) async throws(CollectorError)

    /// Removes the rule with `id` and its state; its firings stay.
    /// - Parameter id: the rule's id.
    /// - Returns: whether there was such a rule.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func deleteAlertRule(id: String) async throws(CollectorError) -> Bool

    /// The evaluation state of every rule evaluated at least once, by rule id.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func alertStates() async throws(CollectorError) -> [String: AlertRuleState]

    /// Notes that a rule was evaluated at `now`, leaving its status as it is.
    /// - Parameters:
    ///   - ruleID: the rule.
    ///   - now: milliseconds since 1970.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func markAlertEvaluated(ruleID: String, at now: Int64) async throws(CollectorError)

    /// Records a firing once per dedupe key and, if it was new, the rule's new state, atomically.
    /// - Parameters:
    ///   - firing: the firing, its delivery pending or skipped.
    ///   - state: the rule's state from now on, or `nil` to leave it (a new crash group).
    /// - Returns: `true` if the firing was new; `false` if its dedupe key was already recorded.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails (nothing is recorded).
    func recordAlertFiring(_ firing: AlertFiring, state: AlertRuleState?) async throws(CollectorError) -> Bool

    /// Records how a firing's delivery went.
    /// - Parameters:
    ///   - firingID: the firing.
    ///   - delivery: the outcome.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func updateAlertDelivery(firingID: String, _ delivery: AlertDelivery) async throws(CollectorError)

    /// The newest firings, of one rule or of all.
    /// - Parameters:
    ///   - ruleID: only this rule's, or `nil` for every rule's.
    ///   - limit: the most firings returned.
    /// - Returns: the firings, newest first.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func alertFirings(ruleID: String?, limit: Int) async throws(CollectorError) -> [AlertFiring]

    /// Claims the evaluation of every rule until `until`, unless another holder's claim is still
    /// running at `now`: how collectors sharing the store pick one evaluator per pass.
    /// - Parameters:
    ///   - holder: the claiming evaluator's id.
    ///   - now: milliseconds since 1970.
    ///   - until: when the claim expires if not renewed.
    /// - Returns: whether `holder` holds the claim now (a renewal of its own claim succeeds).
    /// - Throws: ``CollectorError/Code/storageFailed`` if the store fails.
    func claimAlertEvaluation(holder: String, now: Int64, until: Int64) async throws(CollectorError) -> Bool
}
