/// What an alert rule watches, with its parameters.
///
/// Its JSON form is an object whose `type` names the case, beside the case's parameters:
///
/// ```json
/// {"type": "crashRate", "threshold": 10, "windowMinutes": 5}
/// {"type": "silence", "namespace": "shop", "windowMinutes": 60}
/// {"type": "rejections", "threshold": 100, "windowMinutes": 15}
/// {"type": "newCrashGroup"}
/// ```
public enum AlertKind: Sendable, Hashable, Codable {
    /// A crash group seen for the first time: one firing per new group, never resolved.
    case newCrashGroup
    /// More than `threshold` crash records (namespace `hermes`, type `appCrash`) created in the
    /// last `windowMinutes` minutes.
    case crashRate(threshold: Int, windowMinutes: Int)
    /// No record of `namespace` created in the last `windowMinutes` minutes.
    case silence(namespace: String, windowMinutes: Int)
    /// More than `threshold` uploads rejected or refused in the last `windowMinutes` minutes.
    case rejections(threshold: Int, windowMinutes: Int)

    /// The longest window a rule may look back: 7 days, in minutes.
    public static let maximumWindowMinutes = 7 * 24 * 60

    /// The case's name, as JSON and webhook payloads carry it (`crashRate`).
    public var name: String {
        switch self {
        case .newCrashGroup: "newCrashGroup"
        case .crashRate: "crashRate"
        case .silence: "silence"
        case .rejections: "rejections"
        }
    }

    /// The count a condition must exceed, for the kinds that have one.
    public var threshold: Int? {
        switch self {
        case .crashRate(let threshold, _), .rejections(let threshold, _): threshold
        case .newCrashGroup, .silence: nil
        }
    }

    /// How many minutes back the condition looks, for the kinds that have a window.
    public var windowMinutes: Int? {
        switch self {
        case .crashRate(_, let window), .silence(_, let window), .rejections(_, let window): window
        case .newCrashGroup: nil
        }
    }

    /// What is wrong with the parameters, or `nil`: a negative threshold, a window outside 1 to
    /// ``maximumWindowMinutes``, an empty namespace.
    public var problem: String? {
        if let threshold, threshold < 0 { return "the threshold must be 0 or more, not \(threshold)" }
        if let windowMinutes, !(1...Self.maximumWindowMinutes).contains(windowMinutes) {
            return "the window must be 1 to \(Self.maximumWindowMinutes) minutes, not \(windowMinutes)"
        }
        if case .silence(let namespace, _) = self, namespace.isEmpty { return "a silence rule needs a namespace" }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case type, threshold, windowMinutes, namespace
    }

    /// Reads a kind from its JSON form.
    /// - Throws: `DecodingError` for an unknown `type` or a missing or mistyped parameter.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "newCrashGroup":
            self = .newCrashGroup
        case "crashRate":
            self = .crashRate(
                threshold: try container.decode(Int.self, forKey: .threshold), windowMinutes: try container.decode(Int.self, forKey: .windowMinutes))
        case "silence":
            self = .silence(
                namespace: try container.decode(String.self, forKey: .namespace),
                windowMinutes: try container.decode(Int.self, forKey: .windowMinutes))
        case "rejections":
            self = .rejections(
                threshold: try container.decode(Int.self, forKey: .threshold), windowMinutes: try container.decode(Int.self, forKey: .windowMinutes))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown alert kind \(type): use newCrashGroup, crashRate, silence or rejections")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .type)
        try container.encodeIfPresent(threshold, forKey: .threshold)
        try container.encodeIfPresent(windowMinutes, forKey: .windowMinutes)
        if case .silence(let namespace, _) = self { try container.encode(namespace, forKey: .namespace) }
    }
}
