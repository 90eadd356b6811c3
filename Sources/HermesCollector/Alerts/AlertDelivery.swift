/// How a firing's webhook delivery went, recorded on the firing.
public struct AlertDelivery: Sendable, Hashable, Codable {
    /// Where the delivery stands.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Not attempted yet, or under way.
        case pending
        /// The receiver answered 2xx.
        case delivered
        /// Every attempt failed, or the receiver refused it (a 4xx other than 429).
        case failed
        /// The rule has no webhook: the firing is recorded only.
        case skipped
    }

    /// Where the delivery stands.
    public var status: Status
    /// How many requests were sent (or tried).
    public var attempts: Int
    /// Why the last attempt failed (an HTTP status or a network error, never a body), or `nil`.
    public var lastError: String?
    /// The HTTP status of the last answer, or `nil` if none arrived.
    public var responseStatus: Int?

    /// Creates a delivery result.
    /// - Parameters:
    ///   - status: where the delivery stands.
    ///   - attempts: how many requests were sent or tried.
    ///   - lastError: why the last attempt failed.
    ///   - responseStatus: the HTTP status of the last answer.
    public init(status: Status, attempts: Int = 0, lastError: String? = nil, responseStatus: Int? = nil) {
        self.status = status
        self.attempts = attempts
        self.lastError = lastError
        self.responseStatus = responseStatus
    }
}
