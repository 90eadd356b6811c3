/// What `send` did with a record: accepted for storage, or rejected with a reason.
///
/// ```swift
/// switch client.send(type: "appLag", meta: ["duration_ms": 420]) {
/// case .accepted(let reportID): print("queued", reportID)
/// case .rejected(let error): print("dropped:", error.code)
/// }
/// ```
public enum SendOutcome: Sendable {
    /// The record was queued for storage under this `REPORT_ID`; `flush()` makes it durable.
    case accepted(reportID: String)
    /// The record was rejected and nothing was stored.
    case rejected(HermesError)

    /// Whether the record was accepted.
    public var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }

    /// The accepted record's `REPORT_ID`, or `nil`.
    public var reportID: String? {
        if case .accepted(let reportID) = self { return reportID }
        return nil
    }

    /// The rejection's error, or `nil`.
    public var error: HermesError? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
