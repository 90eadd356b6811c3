/// The body of a request the collector refused (4xx or 5xx), shared by the collector that writes
/// it and the SDK that reads it: `{"error": "<code>", "reason": "<text>", "scope": "packet"|"request"}`.
///
/// `scope` tells an upload refused as a whole because its packet cannot be read (unknown key id,
/// decryption or authentication failed, unsupported version, …: usually a key rotation the app
/// has not caught up with) from a refusal of the request itself (a missing header, the app key).
/// Record-level problems are never refusals: they are listed in the 200 ``UploadAnswer``.
///
/// ```swift
/// if CollectorRefusal(body: response.body)?.scope == .packet { refreshConfiguration() }
/// ```
public struct CollectorRefusal: Sendable, Hashable {
    /// What the refusal is about.
    public enum Scope: String, Sendable, Hashable {
        /// The upload's packet as a whole cannot be read.
        case packet
        /// The request (headers, credentials, query, size), not its contents.
        case request
    }

    /// The error code, to match on.
    public var error: String
    /// What happened and what to do.
    public var reason: String
    /// What the refusal is about.
    public var scope: Scope

    /// Creates a refusal.
    public init(error: String, reason: String, scope: Scope) {
        self.error = error
        self.reason = reason
        self.scope = scope
    }

    /// Reads a refusal body; `nil` when it has no `error` code. A missing or unknown `scope`
    /// reads as ``Scope/request``.
    /// - Parameter body: the response body.
    public init?(body: [UInt8]) {
        guard let object = (try? JSONValue(parsing: body))?.objectValue, let error = object["error"]?.stringValue else { return nil }
        self.error = error
        reason = object["reason"]?.stringValue ?? ""
        scope = object["scope"]?.stringValue.flatMap(Scope.init(rawValue:)) ?? .request
    }

    /// The body as JSON.
    public var json: JSONValue {
        ["error": .string(error), "reason": .string(reason), "scope": .string(scope.rawValue)]
    }
}
