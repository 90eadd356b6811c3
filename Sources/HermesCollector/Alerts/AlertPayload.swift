import Foundation

/// The JSON body of a webhook delivery, also kept on the firing as sent.
///
/// Keys are sorted and absent fields left out:
///
/// ```json
/// {"console":"/console/alerts","id":"3f9a…","kind":"crashRate","ruleId":"5f0c…","ruleName":"Crash spike",
///  "state":"firing","threshold":10,"time":1795400000000,"value":12,"windowMinutes":5}
/// ```
public struct AlertPayload: Sendable, Hashable, Codable {
    /// What the delivery announces.
    public enum State: String, Sendable, Hashable, Codable {
        /// The rule's condition began to hold (or a crash group is new).
        case firing
        /// The rule's condition stopped holding.
        case resolved
        /// A test sent from the console; not recorded.
        case test
    }

    /// The path of the console's alerts page, relative to the collector's address.
    public static let consolePath = "/console/alerts"

    /// The firing's id, also sent as `X-Hermes-Delivery`.
    public var id: String
    /// The rule's id.
    public var ruleID: String
    /// The rule's name.
    public var ruleName: String
    /// The rule's kind (``AlertKind/name``).
    public var kind: String
    /// What the delivery announces.
    public var state: State
    /// The count measured: records or rejections in the window, or 1 for a new crash group.
    public var value: Int
    /// The count the value had to exceed, for the kinds that have one.
    public var threshold: Int?
    /// The window the value was counted over, in minutes.
    public var windowMinutes: Int?
    /// The namespace of a silence rule.
    public var namespace: String?
    /// The new crash group of a `newCrashGroup` firing.
    public var crashGroup: AlertCrashGroup?
    /// When the rule was evaluated, in milliseconds since 1970.
    public var time: Int64
    /// ``consolePath``: where people see the rule and its history.
    public var console: String

    /// The payload of a rule's firing, resolution or test.
    /// - Parameters:
    ///   - id: the firing's id.
    ///   - rule: the rule.
    ///   - state: what the delivery announces.
    ///   - value: the count measured.
    ///   - crashGroup: the new crash group, for a `newCrashGroup` firing.
    ///   - time: when the rule was evaluated, in milliseconds since 1970.
    public init(id: String, rule: AlertRule, state: State, value: Int, crashGroup: AlertCrashGroup? = nil, time: Int64) {
        self.id = id
        ruleID = rule.id
        ruleName = rule.name
        kind = rule.kind.name
        self.state = state
        self.value = value
        threshold = rule.kind.threshold
        windowMinutes = rule.kind.windowMinutes
        if case .silence(let namespace, _) = rule.kind { self.namespace = namespace }
        self.crashGroup = crashGroup
        self.time = time
        console = Self.consolePath
    }

    /// The payload as JSON bytes, keys sorted: the exact body a delivery sends and signs.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and nested objects of the same: encoding cannot fail.
        return (try? Array(encoder.encode(self))) ?? []
    }

    /// Reads a payload from its JSON bytes.
    /// - Parameter bytes: what ``jsonBytes()`` made.
    /// - Throws: ``CollectorError/Code/storageFailed`` if they are not a payload.
    public init(jsonBytes bytes: [UInt8]) throws(CollectorError) {
        do {
            self = try JSONDecoder().decode(AlertPayload.self, from: Data(bytes))
        } catch {
            throw CollectorError(.storageFailed, "a stored alert payload is unreadable", underlying: error)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, ruleName, kind, state, value, threshold, windowMinutes, namespace, crashGroup, time, console
        case ruleID = "ruleId"
    }
}
