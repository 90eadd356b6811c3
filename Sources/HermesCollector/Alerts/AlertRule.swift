/// An alert rule as stored: an editor's ``AlertRuleDraft`` with the id, signing secret and
/// history the collector gives it.
///
/// Make one with ``create(_:by:at:using:)`` and change it with ``updated(with:by:at:)`` (both
/// validate the draft); ``AlertRuleEditor`` does both against a store. Its JSON form, for the
/// console:
///
/// ```json
/// {"id": "5f0c…", "name": "Crash spike", "kind": {"type": "crashRate", "threshold": 10, "windowMinutes": 5},
///  "enabled": true, "webhookURL": "https://hooks.example.com/hermes", "secret": "9b1e…",
///  "createdBy": "ada", "createdAt": 1795400000000, "updatedBy": "ada", "updatedAt": 1795400000000}
/// ```
public struct AlertRule: Sendable, Hashable, Codable, Identifiable {
    /// The rule's id: 32 hexadecimal digits.
    public var id: String
    /// The name people see in the console and in webhook payloads.
    public var name: String
    /// What the rule watches.
    public var kind: AlertKind
    /// Whether the rule is evaluated.
    public var isEnabled: Bool
    /// Where firings are posted, or `nil` to record them only.
    public var webhookURL: String?
    /// The key of each delivery's `X-Hermes-Signature` (64 hexadecimal digits, the text itself
    /// is the HMAC key), made when the rule is created.
    public var secret: String
    /// Who created the rule.
    public var createdBy: String
    /// When the rule was created, in milliseconds since 1970.
    public var createdAt: Int64
    /// Who changed the rule last.
    public var updatedBy: String
    /// When the rule was changed last, in milliseconds since 1970.
    public var updatedAt: Int64

    /// Creates a rule from all its fields, as a store reads it back.
    /// - Parameters:
    ///   - id: the rule's id.
    ///   - draft: the editor's fields.
    ///   - secret: the signing secret.
    ///   - createdBy: who created the rule.
    ///   - createdAt: when, in milliseconds since 1970.
    ///   - updatedBy: who changed it last.
    ///   - updatedAt: when, in milliseconds since 1970.
    public init(id: String, draft: AlertRuleDraft, secret: String, createdBy: String, createdAt: Int64, updatedBy: String, updatedAt: Int64) {
        self.id = id
        name = draft.name
        kind = draft.kind
        isEnabled = draft.isEnabled
        webhookURL = draft.webhookURL
        self.secret = secret
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedBy = updatedBy
        self.updatedAt = updatedAt
    }

    /// The editor's fields of the rule.
    public var draft: AlertRuleDraft {
        AlertRuleDraft(name: name, kind: kind, isEnabled: isEnabled, webhookURL: webhookURL)
    }

    /// A new rule: `draft` checked, with a random id and a random 32-byte secret.
    /// - Parameters:
    ///   - draft: the editor's fields.
    ///   - user: who creates it.
    ///   - now: when, in milliseconds since 1970.
    ///   - generator: the randomness of the id and the secret (the system's by default).
    /// - Returns: the rule, not stored yet.
    /// - Throws: ``CollectorError/Code/invalidAlertRule`` if the draft is not valid.
    public static func create(
        _ draft: AlertRuleDraft, by user: String, at now: Int64, using generator: inout some RandomNumberGenerator
    ) throws(CollectorError) -> AlertRule {
        try draft.validate()
        return AlertRule(
            id: Hex.random(bytes: 16, using: &generator), draft: draft, secret: Hex.random(bytes: 32, using: &generator),
            createdBy: user, createdAt: now, updatedBy: user, updatedAt: now)
    }

    /// This rule with the editor's new fields; the id, secret and creation stay.
    /// - Parameters:
    ///   - draft: the editor's fields.
    ///   - user: who changes it.
    ///   - now: when, in milliseconds since 1970.
    /// - Returns: the changed rule, not stored yet.
    /// - Throws: ``CollectorError/Code/invalidAlertRule`` if the draft is not valid.
    public func updated(with draft: AlertRuleDraft, by user: String, at now: Int64) throws(CollectorError) -> AlertRule {
        try draft.validate()
        return AlertRule(id: id, draft: draft, secret: secret, createdBy: createdBy, createdAt: createdAt, updatedBy: user, updatedAt: now)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, kind, webhookURL, secret, createdBy, createdAt, updatedBy, updatedAt
        case isEnabled = "enabled"
    }

    /// Encodes every field; the signing secret is left out when the encoder's
    /// ``Swift/CodingUserInfoKey/hidesAlertSecrets`` is `true` (what a console viewer is sent).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(isEnabled, forKey: .isEnabled)
        try container.encodeIfPresent(webhookURL, forKey: .webhookURL)
        if encoder.userInfo[.hidesAlertSecrets] as? Bool != true { try container.encode(secret, forKey: .secret) }
        try container.encode(createdBy, forKey: .createdBy)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedBy, forKey: .updatedBy)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

extension CodingUserInfoKey {
    /// `true` on an encoder: ``AlertRule``s are encoded without their signing secrets.
    public static let hidesAlertSecrets = CodingUserInfoKey(rawValue: "hermes.hidesAlertSecrets")!
}
