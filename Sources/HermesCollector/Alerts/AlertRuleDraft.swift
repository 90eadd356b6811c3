import Foundation

/// What an editor writes of an alert rule: the fields of the console's form, before the store
/// gives the rule its id, secret and history (see ``AlertRule``).
///
/// JSON: `{"name": "Crash spike", "kind": {"type": "crashRate", "threshold": 10, "windowMinutes": 5},
/// "enabled": true, "webhookURL": "https://hooks.example.com/hermes"}` (`enabled` defaults to
/// `true`, `webhookURL` may be left out).
///
/// ```swift
/// let draft = AlertRuleDraft(name: "Shop is silent", kind: .silence(namespace: "shop", windowMinutes: 30))
/// try draft.validate()
/// ```
public struct AlertRuleDraft: Sendable, Hashable, Codable {
    /// The most characters a rule's name may have.
    public static let maximumNameLength = 200
    /// The most characters a webhook URL may have.
    public static let maximumURLLength = 2_048

    /// The name people see in the console and in webhook payloads.
    public var name: String
    /// What the rule watches.
    public var kind: AlertKind
    /// Whether the rule is evaluated.
    public var isEnabled: Bool
    /// Where firings are posted (`http` or `https`), or `nil` to record them only.
    public var webhookURL: String?

    /// Creates a draft.
    /// - Parameters:
    ///   - name: the rule's name.
    ///   - kind: what the rule watches.
    ///   - isEnabled: whether the rule is evaluated (default `true`).
    ///   - webhookURL: where firings are posted, or `nil` (the default).
    public init(name: String, kind: AlertKind, isEnabled: Bool = true, webhookURL: String? = nil) {
        self.name = name
        self.kind = kind
        self.isEnabled = isEnabled
        self.webhookURL = webhookURL
    }

    /// Checks the name, the kind's parameters and the webhook URL.
    /// - Throws: ``CollectorError/Code/invalidAlertRule`` naming the first problem found.
    public func validate() throws(CollectorError) {
        if let problem = problem { throw CollectorError(.invalidAlertRule, problem) }
    }

    private var problem: String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "the rule needs a name" }
        guard name.count <= Self.maximumNameLength else { return "the name is longer than \(Self.maximumNameLength) characters" }
        if let problem = kind.problem { return problem }
        guard let webhookURL else { return nil }
        guard webhookURL.count <= Self.maximumURLLength else { return "the webhook URL is longer than \(Self.maximumURLLength) characters" }
        guard let url = URL(string: webhookURL), ["http", "https"].contains(url.scheme?.lowercased()), let host = url.host, !host.isEmpty
        else { return "the webhook URL must be an http:// or https:// URL with a host" }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case name, kind, webhookURL
        case isEnabled = "enabled"
    }

    /// Reads a draft from its JSON form (`enabled` defaults to `true`); call ``validate()`` next.
    /// - Throws: `DecodingError` for a missing or mistyped field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            kind: try container.decode(AlertKind.self, forKey: .kind),
            isEnabled: try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true,
            webhookURL: try container.decodeIfPresent(String.self, forKey: .webhookURL)
        )
    }
}
