import HermesWire

extension HermesClient {
    /// Why a session started or ended, in the `reason` field of its records.
    enum SessionReason: String {
        /// `start()`.
        case start
        /// The app came back after more than the session timeout in the background.
        case timeout
        /// `reset()`.
        case reset
        /// `shutdown()`.
        case shutdown
    }

    /// The id of the session in progress (`SESSION_ID`).
    public var sessionID: String {
        profiles.profile.settings.identity.sessionID
    }

    /// Records `transitions` in the `hermes` namespace when it monitors `sessionStart` and
    /// `sessionEnd`, and makes a started session's id the `SESSION_ID` of later records.
    /// - Parameter identity: a change of user that takes effect with the new session (reset).
    func apply(
        _ transitions: [SessionTransition], reason: SessionReason,
        identity: (@Sendable (inout RecordIdentity) -> Void)? = nil
    ) {
        for transition in transitions {
            switch transition {
            case .ended(_, let duration):
                // Sent before the new session's id replaces this one's: the record carries the
                // SESSION_ID (and user) of the session that ended.
                let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
                sendIfMonitored(MonitorType.sessionEnd, meta: ["durationMs": .int(milliseconds), "reason": .string(reason.rawValue)])
            case .started(let id):
                profiles.update { settings in
                    identity?(&settings.identity)
                    settings.identity.sessionID = id
                }
                sendIfMonitored(MonitorType.sessionStart, meta: ["reason": .string(reason.rawValue)])
            }
        }
    }

    /// Sends a record of the SDK's own to the `hermes` namespace only when its `monitorList`
    /// has the type: a server that does not want it gets no record and the log no warning.
    /// - Returns: the outcome, or `nil` when the `monitorList` leaves the type out.
    @discardableResult
    func sendIfMonitored(_ type: String, meta: [String: JSONValue]) -> SendOutcome? {
        guard configurationService.configuration(for: ConfigurationDocument.hermesNamespace)?.monitorItem(for: type) != nil else { return nil }
        return send(type: type, meta: meta)
    }
}
