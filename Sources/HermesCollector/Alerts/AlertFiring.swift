/// One entry of an alert's history: a rule that fired or resolved, what was (or is to be) sent,
/// and how the delivery went.
///
/// Recorded once per ``dedupeKey`` by ``AlertStorage/recordAlertFiring(_:state:)``, whichever
/// collector instance evaluates the rule.
public struct AlertFiring: Sendable, Hashable, Codable, Identifiable {
    /// The firing's id: ``AlertPayload/id``.
    public var id: String
    /// The rule that fired.
    public var ruleID: String
    /// What makes this firing the same as another instance's: the rule, the event and the
    /// state it ended (`<rule>:firing:<since>`), or the crash group (`<rule>:group:<signature>`).
    public var dedupeKey: String
    /// What was (or is to be) sent.
    public var payload: AlertPayload
    /// How the delivery went.
    public var delivery: AlertDelivery

    /// Creates a firing.
    /// - Parameters:
    ///   - payload: what to send; its id and rule are the firing's.
    ///   - dedupeKey: what makes the firing the same as another instance's.
    ///   - delivery: how the delivery went so far.
    public init(payload: AlertPayload, dedupeKey: String, delivery: AlertDelivery) {
        id = payload.id
        ruleID = payload.ruleID
        self.dedupeKey = dedupeKey
        self.payload = payload
        self.delivery = delivery
    }
}
