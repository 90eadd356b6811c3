/// Why an upload round starts (specification §6).
enum UploadTrigger: Sendable, Hashable {
    /// Shortly after `start()`.
    case start
    /// The namespace's `periodicTimerSecond` elapsed.
    case periodic
    /// A record of a realtime type was accepted (throttled per namespace).
    case realtime
    /// The namespace holds `flushCount` rows or more.
    case flushCount
    /// The network came back.
    case networkRegained
    /// A backoff after a failed round ran out.
    case retry
    /// Triggers arrived while a round ran: one more round.
    case rerun
    /// Consent was granted: what was stored while it was pending goes up.
    case consentGranted
    /// The app went to the background: a last upload while it may still run.
    case background
}

/// What the upload engine did, for tests and diagnostics to await.
enum UploadEvent: Sendable, Hashable {
    case triggered(namespace: String, UploadTrigger)
    case finished(UploadSummary)
}
