/// What one upload round did in one namespace.
public struct UploadSummary: Sendable, Hashable {
    /// How a round ended.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// Every pending record that could go was sent (or none was pending).
        case completed
        /// The namespace's `isUpload` is off.
        case uploadDisabled
        /// The network is unreachable.
        case offline
        /// On a metered network, the 24-hour traffic window is used up (`maxFlowMByte`).
        case quotaExceeded
        /// The collector could not take the batch now; the round retries after a backoff.
        /// A 2xx answer that did not prove a Hermes collector stored the batch ends a round
        /// this way too, with a reason starting `unacknowledged HTTP <status>` (its records are
        /// kept; see ``Diagnostics/unacknowledged``).
        case retryLater(reason: String)
        /// The round was cancelled (shutdown); its batch went back to pending.
        case cancelled
        /// Neither the namespace nor the client names a collector URL.
        case noCollector
        /// The collector refused the upload for a reason a quick retry will not fix; the
        /// namespace's uploads are paused and every record is kept (see ``UploadBlock``).
        case paused(UploadBlock.Reason)
        /// `upload()` was called before `start()`: no round runs until start-up housekeeping is done.
        case notStarted
        /// Consent is not granted (``Consent/pending`` or ``Consent/denied``): records stay stored.
        case consentNotGranted

        public var description: String {
            switch self {
            case .completed: "completed"
            case .uploadDisabled: "upload disabled"
            case .offline: "offline"
            case .quotaExceeded: "traffic quota exceeded"
            case .retryLater(let reason): "retry later (\(reason))"
            case .cancelled: "cancelled"
            case .noCollector: "no collector URL"
            case .paused(let reason): "paused (\(reason))"
            case .notStarted: "not started"
            case .consentNotGranted: "consent not granted"
            }
        }
    }

    /// The namespace.
    public var namespace: String
    /// Records the collector acknowledged as stored.
    public var recordsSent: Int
    /// Records the collector rejected on their own (deleted, counted as ``LossReason/rejected``).
    public var recordsRejected: Int
    /// Request body bytes sent (every attempt).
    public var bytesSent: Int
    /// Requests made.
    public var requests: Int
    /// How the round ended.
    public var outcome: Outcome

    /// Creates a summary.
    public init(
        namespace: String, recordsSent: Int = 0, recordsRejected: Int = 0, bytesSent: Int = 0, requests: Int = 0,
        outcome: Outcome = .completed
    ) {
        self.namespace = namespace
        self.recordsSent = recordsSent
        self.recordsRejected = recordsRejected
        self.bytesSent = bytesSent
        self.requests = requests
        self.outcome = outcome
    }
}
